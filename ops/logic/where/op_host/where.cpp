// Host side of WhereCustom: the operator definition and the tiling function.
#include "where_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
// Elements per split unit and tile granule. The condition is turned into a bit mask by
// Compares on half (whole 256 B repeats = 128 elements) whose mask must fill whole 32 B
// blocks (256 bits), and the bool condition is copied in whole 32 B blocks, so 256
// elements satisfy all of them for every value dtype.
constexpr uint32_t UNIT = 256;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    WhereTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(1)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    if (typeSize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    if (context->GetInputShape(1)->GetOriginShape().GetShapeSize() != totalLength ||
        context->GetInputShape(2)->GetOriginShape().GetShapeSize() != totalLength) {
        return ge::GRAPH_FAILED;  // no broadcasting: every input has the condition's element count
    }
    uint32_t totalUnits = (totalLength + UNIT - 1) / UNIT;
    uint32_t usedCores = totalUnits < coreNum ? totalUnits : coreNum;
    uint32_t unitsPerCore = totalUnits / usedCores;
    uint32_t formerNum = totalUnits % usedCores;

    // UB per element of a tile: double-buffered queues for the bool condition, both value
    // inputs and the output, the condition widened to half, and its bit mask (counted as
    // a byte).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (1 + 3 * typeSize) + 2 + 1;
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
class WhereCustom : public OpDef {
public:
    explicit WhereCustom(const char* name) : OpDef(name)
    {
        this->Input("condition")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WhereCustom);
}  // namespace ops
