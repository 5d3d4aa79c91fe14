// Host side of TriuCustom: the operator definition and the tiling function.
#include "triu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t FLOATS_PER_REPEAT = 64;  // the column-index compare runs in whole float repeats
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;

static uint32_t Padded(uint64_t cols)
{
    return static_cast<uint32_t>((cols + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT);
}
// Fixed scratch: the float column indices of a chunk and their compare mask (one bit per column).
static uint64_t FixedBytes(uint64_t colsPadded) { return colsPadded * FLOAT_SIZE + colsPadded / 8 + BLOCK_SIZE; }
// Per row of a tile: double-buffered input and output chunks.
static uint64_t RowBytes(uint64_t colsPadded, uint32_t typeSize) { return colsPadded * typeSize * BUFFER_NUM * 2; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TriuTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    size_t dimNum = shape.GetDimNum();
    const int64_t* diagonal = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (typeSize == 0 || coreNum == 0 || dimNum == 0 || diagonal == nullptr) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t matRows = dimNum >= 2 ? shape.GetDim(dimNum - 2) : 1;
    uint32_t rows = shape.GetShapeSize() / cols;

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Rows go in column chunks: the whole row when it fits in UB, else the widest multiple
    // of 64 columns that does.
    uint32_t chunkCols = cols;
    uint32_t colsPadded = Padded(chunkCols);
    if (FixedBytes(colsPadded) + RowBytes(colsPadded, typeSize) > ubSize) {
        uint64_t perColumn = FLOAT_SIZE + 1 + static_cast<uint64_t>(typeSize) * BUFFER_NUM * 2;
        uint64_t fit = (ubSize - 2 * BLOCK_SIZE) / perColumn / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        while (fit > FLOATS_PER_REPEAT && FixedBytes(fit) + RowBytes(fit, typeSize) > ubSize) {
            fit -= FLOATS_PER_REPEAT;
        }
        chunkCols = static_cast<uint32_t>(fit < cols ? fit : cols);
        colsPadded = Padded(chunkCols);
    }
    uint64_t fixedBytes = FixedBytes(colsPadded);
    uint64_t rowBytes = RowBytes(colsPadded, typeSize);
    if (fixedBytes + rowBytes > ubSize) {
        return ge::GRAPH_FAILED;  // 64 columns do not fit in UB
    }
    uint64_t rowsPerTile = (ubSize - fixedBytes) / rowBytes;
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    tiling.set_matRows(matRows);
    tiling.set_cols(cols);
    tiling.set_chunkCols(chunkCols);
    tiling.set_colsPadded(colsPadded);
    // Diagonals beyond the matrix act like the matrix edge; clamping keeps them in int32.
    int64_t limit = static_cast<int64_t>(cols) + matRows;
    int64_t diag = *diagonal < -limit ? -limit : (*diagonal > limit ? limit : *diagonal);
    tiling.set_diagonal(static_cast<int32_t>(diag));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class TriuCustom : public OpDef {
public:
    explicit TriuCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("diagonal").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TriuCustom);
}  // namespace ops
