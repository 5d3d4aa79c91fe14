// Host side of DynamicQuantCustom: the operator definition, InferShape and the tiling function.
#include "dynamic_quant_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
// UB row stride granule in elements: 32 int8 = one 32 B block, so every row of the int8
// output, the 16-bit input and the float copy starts on a 32 B boundary.
constexpr uint32_t ROW_ALIGN = 32;
// Per-tile scale buffers (the row maxima and the double-buffered scale output) are sized
// for this many rows; it also bounds the rows of one DataCopyPad.
constexpr uint32_t MAX_ROWS_PER_TILE = 512;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DynamicQuantTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    size_t rank = shape.GetDimNum();
    uint64_t total = shape.GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    if (rank == 0 || total == 0 || typeSize == 0 || coreNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t rows = static_cast<uint32_t>(total / cols);
    uint32_t rowStride = (cols + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;

    // UB: the scale buffers, then per UB element of a row: two float row buffers (|x| and
    // the ReduceMax work area), the double-buffered input queue, the float copy and the
    // double-buffered int8 output queue.
    uint64_t fixedBytes = 3ULL * MAX_ROWS_PER_TILE * sizeof(float) + 32;
    uint64_t bytesPerElem = 2 * sizeof(float) + BUFFER_NUM * typeSize + sizeof(float) + BUFFER_NUM;
    if (fixedBytes + bytesPerElem * ROW_ALIGN > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowsPerTile = 1;
    uint32_t chunkNum = 1;
    uint64_t rowFixed = 2ULL * rowStride * sizeof(float);
    uint64_t rowBytes = static_cast<uint64_t>(rowStride) * (bytesPerElem - 2 * sizeof(float));
    if (fixedBytes + rowFixed + rowBytes <= ubSize) {
        // Whole rows: as many per tile as fit.
        uint64_t fit = (ubSize - fixedBytes - rowFixed) / rowBytes;
        rowsPerTile = static_cast<uint32_t>(fit < MAX_ROWS_PER_TILE ? fit : MAX_ROWS_PER_TILE);
    } else {
        // A row longer than UB holds: one row at a time in chunks of the largest fitting
        // multiple of 32 elements, read twice (maximum, then quantization).
        rowStride = static_cast<uint32_t>((ubSize - fixedBytes) / bytesPerElem / ROW_ALIGN * ROW_ALIGN);
        chunkNum = (cols + rowStride - 1) / rowStride;
    }

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowStride(rowStride);
    tiling.set_formerNum(rows % usedCores);
    tiling.set_formerRows(rows / usedCores + 1);
    tiling.set_tailRows(rows / usedCores);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_chunkNum(chunkNum);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y has x's shape; scale has one value per row: x's shape without the last axis
// ([1] for a rank-1 x).
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    gert::Shape* scale = context->GetOutputShape(1);
    if (x == nullptr || y == nullptr || scale == nullptr || x->GetDimNum() == 0) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(0);
    scale->SetDimNum(0);
    for (size_t d = 0; d < x->GetDimNum(); ++d) {
        y->AppendDim(x->GetDim(d));
        if (d + 1 < x->GetDimNum()) {
            scale->AppendDim(x->GetDim(d));
        }
    }
    if (scale->GetDimNum() == 0) {
        scale->AppendDim(1);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DynamicQuantCustom : public OpDef {
public:
    explicit DynamicQuantCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT8, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DynamicQuantCustom);
}  // namespace ops
