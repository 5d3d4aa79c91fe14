// Host side of CastCustom: the operator definition and the tiling function.
#include "cast_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
// Elements per split unit and tile granule: whole 32 B blocks for a one-byte int8 output
// and whole 256 B vector repeats for every type on the way, with core starts 256 B
// aligned on the narrowest tensor.
constexpr uint32_t UNIT = 256;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CastTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType xType = context->GetInputDesc(0)->GetDataType();
    ge::DataType yType = context->GetOutputDesc(0)->GetDataType();
    uint32_t xSize = ge::GetSizeByDataType(xType);
    uint32_t ySize = ge::GetSizeByDataType(yType);
    if (xSize == 0 || ySize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t totalUnits = (totalLength + UNIT - 1) / UNIT;
    uint32_t usedCores = totalUnits < coreNum ? totalUnits : coreNum;
    uint32_t unitsPerCore = totalUnits / usedCores;
    uint32_t formerNum = totalUnits % usedCores;

    // UB per element of a tile: double-buffered input and output queues; float -> int8
    // also keeps an int16 and a half intermediate (the conversion goes through both).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (xSize + ySize);
    if (yType == ge::DT_INT8 && xType == ge::DT_FLOAT) {
        bytesPerElem += sizeof(int16_t) + 2;
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
class CastCustom : public OpDef {
public:
    explicit CastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT8, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CastCustom);
}  // namespace ops
