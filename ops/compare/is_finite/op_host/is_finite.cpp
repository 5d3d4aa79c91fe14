// Host side of IsFiniteCustom: the operator definition and the tiling function.
#include "is_finite_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
// Elements per split unit and tile granule. Compares works on whole 256 B repeats, its
// bit mask must fill whole 32 B blocks (256 bits) and the bool output whole 32 B blocks,
// so 256 elements satisfy all three for every input dtype.
constexpr uint32_t UNIT = 256;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IsFiniteTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    if (typeSize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t totalUnits = (totalLength + UNIT - 1) / UNIT;
    uint32_t usedCores = totalUnits < coreNum ? totalUnits : coreNum;
    uint32_t unitsPerCore = totalUnits / usedCores;
    uint32_t formerNum = totalUnits % usedCores;

    // UB per element of a tile: double-buffered input and bool output queues, the bit
    // mask (counted as a byte), the half 0/1 select result and the constant half ones;
    // bfloat16 adds a float copy of the input (the vector unit has no bf16 arithmetic).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (typeSize + 1) + 1 + 2 + 2;
    if (dtype == ge::DT_BF16) {
        bytesPerElem += sizeof(float);
    }
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / UNIT * UNIT);
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((unitsPerCore + 1) * UNIT);
    tiling.set_tailLength(unitsPerCore * UNIT);
    tiling.set_tileLength(tileLength);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class IsFiniteCustom : public OpDef {
public:
    explicit IsFiniteCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IsFiniteCustom);
}  // namespace ops
