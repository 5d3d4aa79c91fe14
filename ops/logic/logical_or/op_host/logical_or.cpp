// Host side of LogicalOrCustom: the operator definition and the tiling function.
#include "logical_or_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INPUT_NUM = 2;
// Elements (one byte each) per split unit and tile granule: core starts and full tiles
// fall on 512 B burst boundaries, and a tile is whole 256 B repeats of the uint16 view.
constexpr uint32_t UNIT = 512;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LogicalOrTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    if (context->GetInputShape(1)->GetOriginShape().GetShapeSize() != totalLength) {
        return ge::GRAPH_FAILED;  // no broadcasting: x2 must have x1's element count
    }
    uint32_t totalUnits = (totalLength + UNIT - 1) / UNIT;
    uint32_t usedCores = totalUnits < coreNum ? totalUnits : coreNum;
    uint32_t unitsPerCore = totalUnits / usedCores;
    uint32_t formerNum = totalUnits % usedCores;

    // UB per element: double-buffered queues for both inputs and the output, one byte each.
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (INPUT_NUM + 1);
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
class LogicalOrCustom : public OpDef {
public:
    explicit LogicalOrCustom(const char* name) : OpDef(name)
    {
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_BOOL}).Format({ge::FORMAT_ND});
        this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_BOOL}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_BOOL}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LogicalOrCustom);
}  // namespace ops
