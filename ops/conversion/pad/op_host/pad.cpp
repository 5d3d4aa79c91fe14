// Host side of PadCustom: the operator definition, output shape and tiling function.
#include "pad_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_COL_BYTES = 16384;   // a 16 KB row slice still leaves room for several rows
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PadTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    size_t dimNum = shape.GetDimNum();
    const auto* pads = context->GetAttrs()->GetListInt(0);
    const float* value = context->GetAttrs()->GetAttrPointer<float>(1);
    if (typeSize == 0 || coreNum == 0 || dimNum == 0 || pads == nullptr || value == nullptr ||
        pads->GetSize() != 2 || pads->GetData()[0] < 0 || pads->GetData()[1] < 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t left = static_cast<uint32_t>(pads->GetData()[0]);
    uint32_t right = static_cast<uint32_t>(pads->GetData()[1]);

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t maxCols = MAX_COL_BYTES / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint32_t colTile = colsAligned < maxCols ? colsAligned : maxCols;
    uint32_t widestPad = left > right ? left : right;
    uint32_t padAligned = (widestPad + alignNum - 1) / alignNum * alignNum;
    uint32_t padChunk = padAligned == 0 ? alignNum : (padAligned < maxCols ? padAligned : maxCols);
    // Per tile row: a double-buffered data slice and a row of pad values.
    uint64_t rowBytes = (static_cast<uint64_t>(colTile) * BUFFER_NUM + padChunk) * typeSize;
    uint64_t rowsPerTile = ubSize / rowBytes;
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    tiling.set_cols(cols);
    tiling.set_left(left);
    tiling.set_right(right);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_colTile(colTile);
    tiling.set_padChunk(padChunk);
    tiling.set_value(*value);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is x with the last dimension grown by pads[0] + pads[1].
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const auto* pads = context->GetAttrs()->GetListInt(0);
    size_t dimNum = xShape->GetDimNum();
    if (dimNum == 0 || pads == nullptr || pads->GetSize() != 2 || pads->GetData()[0] < 0 || pads->GetData()[1] < 0) {
        return GRAPH_FAILED;
    }
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(0);
    for (size_t d = 0; d + 1 < dimNum; ++d) {
        yShape->AppendDim(xShape->GetDim(d));
    }
    yShape->AppendDim(xShape->GetDim(dimNum - 1) + pads->GetData()[0] + pads->GetData()[1]);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PadCustom : public OpDef {
public:
    explicit PadCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("value").AttrType(OPTIONAL).Float(0.0);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PadCustom);
}  // namespace ops
