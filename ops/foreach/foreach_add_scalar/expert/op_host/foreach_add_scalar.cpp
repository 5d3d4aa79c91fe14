// Host side of ForeachAddScalarCustom (expert): the operator definition and the tiling
// function. The list is balanced as one stream of 512 B units over a core count chosen
// from the total work.
#include <cmath>
#include "foreach_add_scalar_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SPLIT_BYTES = 512;
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model) and the
// single-core cost of one element (its GM read at ~46 B/cycle of MTE2).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double MTE2_BYTES_PER_CYCLE = 46.0;
constexpr uint32_t MIN_TILES_PER_CORE = 4;  // enough tiles for MTE2/V/MTE3 to overlap
constexpr uint32_t BUFFER_NUM = 2;

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

    // expert: list-level load balance. The tensors are laid end to end in whole 512 B
    // units and the cores take even, contiguous shares of that stream: no core handles a
    // sliver of every tensor (each sliver pays its own copy latency), and every share
    // starts 512 B-aligned inside its tensor.
    uint32_t unitLength = SPLIT_BYTES / typeSize;
    uint32_t totalLength[FOREACH_LIST_SIZE];
    uint64_t totalUnits = 0;
    uint64_t totalElems = 0;
    for (uint32_t i = 0; i < FOREACH_LIST_SIZE; i++) {
        totalLength[i] = context->GetInputShape(i)->GetOriginShape().GetShapeSize();
        totalUnits += (totalLength[i] + unitLength - 1) / unitLength;
        totalElems += totalLength[i];
    }
    if (totalUnits == 0) {
        totalUnits = 1;  // an all-empty list still launches one core, which copies nothing
    }
    // expert: core count from the total work. W cycles of single-core copy work over k
    // cores cost W / k + k * launch, best at k = sqrt(W / launch).
    double work = static_cast<double>(totalElems) * typeSize / MTE2_BYTES_PER_CYCLE;
    uint32_t usedCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    usedCores = usedCores == 0 ? 1 : (usedCores < coreNum ? usedCores : coreNum);
    usedCores = totalUnits < usedCores ? static_cast<uint32_t>(totalUnits) : usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalUnits % usedCores);
    uint32_t tailUnits = static_cast<uint32_t>(totalUnits / usedCores);

    // UB per element of a tile: double-buffered input and output queues, plus a float copy
    // for bfloat16 (added in float).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * 2 * typeSize + (dtype == ge::DT_BF16 ? sizeof(float) : 0);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / unitLength * unitLength);
    // expert: tiles short enough that each core streams several of them (copies and the add
    // overlap through the double buffers), in whole 512 B units.
    uint32_t shareElems = (tailUnits + 1) * unitLength;
    uint32_t overlapTile = (shareElems / MIN_TILES_PER_CORE + unitLength - 1) / unitLength * unitLength;
    if (overlapTile < tileLength) {
        tileLength = overlapTile;
    }
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;  // not even one 512 B tile fits in the UB budget
    }

    tiling.set_totalLength(totalLength);
    tiling.set_unitLength(unitLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerUnits(tailUnits + 1);
    tiling.set_tailUnits(tailUnits);
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
