// Host side of ScatterAddCustom: the operator definition and the tiling function.
#include "scatter_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t INDEX_SIZE = 4;
constexpr uint32_t FLOATS_PER_REPEAT = 64;
constexpr uint32_t MAX_COL_TILE = 4096;     // 16 KB of float per row keeps several rows in a chunk
constexpr uint32_t INDEX_TILE = 2048;       // 8 KB of indices per load
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScatterAddTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& selfShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& indexShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || selfShape.GetDimNum() != 2 || indexShape.GetDimNum() != 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = selfShape.GetDim(0);
    uint32_t cols = selfShape.GetDim(1);
    uint32_t numIndices = indexShape.GetDim(0);

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    uint32_t colsPadded = (cols + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
    uint32_t colTile = colsPadded < MAX_COL_TILE ? colsPadded : MAX_COL_TILE;
    // Fixed: the index tile, a double-buffered src row and (16-bit types) its float copy.
    uint64_t fixedBytes = static_cast<uint64_t>(INDEX_TILE) * INDEX_SIZE +
                          static_cast<uint64_t>(colTile) * (BUFFER_NUM * typeSize + FLOAT_SIZE);
    // Per chunk row: self in, float accumulator, out.
    uint64_t rowBytes = static_cast<uint64_t>(colTile) * (typeSize + FLOAT_SIZE + typeSize);
    uint64_t rowsPerChunk = (ubSize - fixedBytes) / rowBytes;
    if (rowsPerChunk > formerRows) {
        rowsPerChunk = formerRows;
    }
    if (rowsPerChunk > MAX_ROWS_PER_COPY) {
        rowsPerChunk = MAX_ROWS_PER_COPY;
    }

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_numIndices(numIndices);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_colTile(colTile);
    tiling.set_rowsPerChunk(static_cast<uint32_t>(rowsPerChunk));
    tiling.set_indexTile(INDEX_TILE);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScatterAddCustom : public OpDef {
public:
    explicit ScatterAddCustom(const char* name) : OpDef(name)
    {
        this->Input("self")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("src")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScatterAddCustom);
}  // namespace ops
