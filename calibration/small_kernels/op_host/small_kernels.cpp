// Host side of the small full-chip calibration kernels: every vector core of the platform,
// 32 B-block shares per core, and the longest tile the UB holds with double buffering.
#include "small_kernels_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 128;  // elements: whole 256 B repeats for 16-bit types
constexpr int64_t kSigmoid = 0, kGelu = 1, kMaximum = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SmallKernelsTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();
    int64_t formula = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (formula < kSigmoid || formula > kMaximum || typeSize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    uint32_t blocksPerCore = totalBlocks / usedCores;

    // UB per element of a tile: double-buffered inputs and output in the tensor dtype, plus
    // float work tiles (16-bit data is computed in float, except Maximum of half).
    const bool wide = typeSize == sizeof(float);
    uint32_t tensors = formula == kMaximum ? 3 : 2;
    uint32_t floatTiles = 0;
    if (formula == kSigmoid) floatTiles = wide ? 0 : 2;
    if (formula == kGelu) floatTiles = wide ? 1 : 3;
    if (formula == kMaximum) floatTiles = context->GetInputDesc(0)->GetDataType() == ge::DT_BF16 ? 2 : 0;
    uint64_t bytesPerElem = BUFFER_NUM * tensors * typeSize + floatTiles * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(totalBlocks % usedCores);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
    tiling.set_tileLength(tileLength);
    tiling.set_formula(static_cast<uint32_t>(formula));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SmallKernels : public OpDef {
public:
    explicit SmallKernels(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("formula").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SmallKernels);
}  // namespace ops
