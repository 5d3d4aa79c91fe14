// Host side of ForeachAddScalarCustom: the operator definition and the tiling function.
#include "foreach_add_scalar_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 128;  // elements: whole 256 B repeats for 16-bit and 32-bit views

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ForeachAddScalarTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    if (typeSize == 0 || coreNum == 0 || alpha == nullptr) {
        return ge::GRAPH_FAILED;
    }

    // Every tensor is split over all cores in whole 32 B blocks; the block dim is the
    // most cores any tensor can use.
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t totalLength[FOREACH_LIST_SIZE];
    uint32_t formerNum[FOREACH_LIST_SIZE];
    uint32_t formerLength[FOREACH_LIST_SIZE];
    uint32_t tailLength[FOREACH_LIST_SIZE];
    uint32_t usedCores = 1;
    for (uint32_t i = 0; i < FOREACH_LIST_SIZE; i++) {
        totalLength[i] = context->GetInputShape(i)->GetOriginShape().GetShapeSize();
        uint32_t totalBlocks = (totalLength[i] + alignNum - 1) / alignNum;
        uint32_t cores = totalBlocks < coreNum ? totalBlocks : coreNum;
        cores = cores == 0 ? 1 : cores;
        usedCores = cores > usedCores ? cores : usedCores;
        formerNum[i] = totalBlocks % cores;
        formerLength[i] = (totalBlocks / cores + 1) * alignNum;
        tailLength[i] = totalBlocks / cores * alignNum;
    }

    // UB per element of a tile: double-buffered input and output queues, plus a float copy
    // for bfloat16 (added in float).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * 2 * typeSize + (dtype == ge::DT_BF16 ? sizeof(float) : 0);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(tailLength);
    tiling.set_tileLength(tileLength);
    tiling.set_alpha(*alpha);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ForeachAddScalarCustom : public OpDef {
public:
    explicit ForeachAddScalarCustom(const char* name) : OpDef(name)
    {
        for (const char* input : {"x0", "x1", "x2", "x3"}) {
            this->Input(input)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        for (const char* output : {"y0", "y1", "y2", "y3"}) {
            this->Output(output)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachAddScalarCustom);
}  // namespace ops
