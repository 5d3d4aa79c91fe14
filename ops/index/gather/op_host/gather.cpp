// Host side of GatherCustom: the operator definition, output shape and tiling function.
#include "gather_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INDEX_SIZE = 4;
constexpr uint32_t MAX_COL_BYTES = 16384;   // a 16 KB row slice still leaves room for several rows
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GatherTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& indexShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || xShape.GetDimNum() != 2 || indexShape.GetDimNum() != 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tableRows = xShape.GetDim(0);
    uint32_t cols = xShape.GetDim(1);
    uint32_t rows = indexShape.GetDim(0);

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint32_t maxCols = MAX_COL_BYTES / typeSize;
    uint32_t colTile = colsAligned < maxCols ? colsAligned : maxCols;
    // Per tile row: a double-buffered row slice and its index.
    uint64_t rowBytes = static_cast<uint64_t>(colTile) * typeSize * BUFFER_NUM + INDEX_SIZE * BUFFER_NUM;
    uint64_t rowsPerTile = (ubSize - BLOCK_SIZE * BUFFER_NUM) / rowBytes;
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    tiling.set_tableRows(tableRows);
    tiling.set_cols(cols);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_colTile(colTile);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is [len(indices), D] for x [V, D].
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* indexShape = context->GetInputShape(1);
    if (xShape->GetDimNum() != 2 || indexShape->GetDimNum() != 1) {
        return GRAPH_FAILED;
    }
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(0);
    yShape->AppendDim(indexShape->GetDim(0));
    yShape->AppendDim(xShape->GetDim(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GatherCustom : public OpDef {
public:
    explicit GatherCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GatherCustom);
}  // namespace ops
