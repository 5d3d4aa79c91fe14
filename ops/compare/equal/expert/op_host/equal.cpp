// Host side of EqualCustom (expert): the operator definition and the tiling function.
#include "equal_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INPUT_NUM = 2;
// Elements per split unit and tile granule. Compare works on whole 256 B repeats, its bit
// mask must fill whole 32 B blocks (256 bits) and the bool output whole 32 B blocks, so
// 256 elements satisfy all three for every input dtype; core starts stay 256 B aligned
// on the bool output and 512 B aligned on 16-bit inputs.
constexpr uint32_t UNIT = 256;
// expert: cores split the tensor in SPLIT_UNIT elements, 512 B of the bool output (and
// 1-2 KB of the inputs), so every core's bursts start 512 B aligned on all three tensors.
constexpr uint32_t SPLIT_UNIT = 512;
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model) and the
// single-core cost per element: the two input reads at ~46 B/cycle of MTE2.
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double MTE2_BYTES_PER_CYCLE = 46.0;
constexpr uint32_t MIN_TILES_PER_CORE = 4;  // enough tiles for MTE2/V/MTE3 to overlap

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EqualTilingData tiling;
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
    if (context->GetInputShape(1)->GetOriginShape().GetShapeSize() != totalLength) {
        return ge::GRAPH_FAILED;  // no broadcasting: x2 must have x1's element count
    }
    // expert: core count from the amount of work. W cycles of single-core copy work over k
    // cores cost W / k + k * launch, best at k = sqrt(W / launch).
    double work = static_cast<double>(totalLength) * INPUT_NUM * typeSize / MTE2_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t totalUnits = (totalLength + SPLIT_UNIT - 1) / SPLIT_UNIT;
    uint32_t usedCores = totalUnits < wantCores ? totalUnits : wantCores;
    uint32_t unitsPerCore = totalUnits / usedCores;
    uint32_t formerNum = totalUnits % usedCores;

    // UB per element of a tile: double-buffered queues for both inputs and the bool
    // output, the compare bit mask (counted as a byte), the half 0/1 select result and the
    // constant half ones; bfloat16 adds float copies of both inputs (no bf16 compare).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (INPUT_NUM * typeSize + 1) + 1 + 2 + 2;
    if (dtype == ge::DT_BF16) {
        bytesPerElem += INPUT_NUM * sizeof(float);
    }
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / SPLIT_UNIT * SPLIT_UNIT);
    // expert: tiles short enough that each core streams several of them.
    uint32_t shareLength = (unitsPerCore + (formerNum > 0 ? 1 : 0)) * SPLIT_UNIT;
    uint32_t overlapTile = (shareLength / MIN_TILES_PER_CORE + SPLIT_UNIT - 1) / SPLIT_UNIT * SPLIT_UNIT;
    tileLength = overlapTile < tileLength ? overlapTile : tileLength;
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((unitsPerCore + 1) * SPLIT_UNIT);
    tiling.set_tailLength(unitsPerCore * SPLIT_UNIT);
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
class EqualCustom : public OpDef {
public:
    explicit EqualCustom(const char* name) : OpDef(name)
    {
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
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(EqualCustom);
}  // namespace ops
