// Host side of SwigluCustom: the operator definition, output shape and tiling function.
#include "swiglu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 128;  // elements; whole 256 B repeats

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SwigluTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    size_t rank = shape.GetDimNum();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (rank == 0 || typeSize == 0 || coreNum == 0 || shape.GetDim(rank - 1) % 2 != 0) {
        return ge::GRAPH_FAILED;  // the last dimension must split into two equal halves
    }
    uint32_t halfLen = static_cast<uint32_t>(shape.GetDim(rank - 1) / 2);
    uint32_t rowNum = static_cast<uint32_t>(shape.GetShapeSize() / shape.GetDim(rank - 1));
    if (rowNum == 0 || halfLen == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t usedCores = rowNum < coreNum ? rowNum : coreNum;

    // Per element of a tile: double-buffered a, b (the two halves) and y in the input
    // dtype, plus float copies of a, b and y for 16-bit inputs, plus one float temporary.
    uint32_t floatTiles = 1 + (typeSize == sizeof(float) ? 0 : 3);
    uint64_t bytesPerElem = BUFFER_NUM * 3 * typeSize + floatTiles * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);
    // Rows padded to 32 B in UB; several short rows share one tile.
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t paddedHalf = (halfLen + alignNum - 1) / alignNum * alignNum;
    uint32_t rowsPerTile = paddedHalf <= tileLength ? tileLength / paddedHalf : 0;
    if (rowsPerTile > 4095) {
        rowsPerTile = 4095;  // DataCopyPad blockCount limit
    }

    tiling.set_rowNum(rowNum);
    tiling.set_halfLen(halfLen);
    tiling.set_formerNum(rowNum % usedCores);
    tiling.set_rowsPerCore(rowNum / usedCores);
    tiling.set_tileLength(tileLength);
    tiling.set_rowsPerTile(rowsPerTile);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y has x's shape with the last dimension halved.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    size_t rank = x->GetDimNum();
    if (rank == 0 || x->GetDim(rank - 1) % 2 != 0) {
        return GRAPH_FAILED;
    }
    *y = *x;
    y->SetDim(rank - 1, x->GetDim(rank - 1) / 2);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SwigluCustom : public OpDef {
public:
    explicit SwigluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SwigluCustom);
}  // namespace ops
