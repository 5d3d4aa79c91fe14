// Host side of MulCustom (expert): the operator definition and the tiling function.
// Expert tiling: the core count follows the amount of work (each extra core costs
// launch time), cores split the tensor in 512 B units, and tiles are sized so every
// core streams several tiles through its double buffers.
#include "mul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t SPLIT_BYTES = 512;
constexpr uint32_t BANK_PAD = 256;  // bytes of each of the kernel's two bank-shifting pads
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
// Single-core cost per element: the larger of the GM traffic at ~46 B/cycle of MTE2 and
// the vector work of the formula (cycles per element, float compute included).
constexpr double VEC_CYCLES_PER_ELEM = 0.05;
constexpr double MTE_TENSORS = 2;  // tensors read from GM per element
constexpr uint32_t MIN_TILES_PER_CORE = 4;  // enough tiles for MTE2/V/MTE3 to overlap
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t UB_REGION = 65536;  // UB bank id changes every 64 KB
constexpr uint32_t INPUT_NUM = 2;
constexpr uint32_t TILE_ALIGN = 128;  // elements: whole 256 B repeats for 16-bit and 32-bit views

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MulTilingData tiling;
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
    // expert: core count from the amount of work. Splitting W cycles of single-core work
    // over k cores costs W / k + k * launch, best at k = sqrt(W / launch); a µs-scale
    // operator pays more for launching 48 cores than it saves.
    double mteCycles = MTE_TENSORS * typeSize / 46.0;
    double elemCycles = mteCycles > VEC_CYCLES_PER_ELEM ? mteCycles : VEC_CYCLES_PER_ELEM;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(totalLength * elemCycles / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    // expert: 512 B-aligned core split. Whole 512 B units per core so every core's slice
    // and every full tile start on a 512 B boundary (32 B-aligned bursts reach only ~70 %
    // of the bandwidth). The first `formerNum` cores take one unit more; the kernel cuts
    // the last share at the end of the tensor.
    uint32_t alignNum = SPLIT_BYTES / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < wantCores ? totalBlocks : wantCores;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // UB per element of a tile: double-buffered queues for every input and the output,
    // plus float copies of the inputs when the kernel computes in float (bfloat16 is computed in float (the vector unit has no bf16 arithmetic); float16 natively).
    bool computeInFloat = dtype == ge::DT_BF16;
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (INPUT_NUM + 1) * typeSize;
    if (computeInFloat) {
        bytesPerElem += INPUT_NUM * sizeof(float);
    }
    uint32_t tileLength = static_cast<uint32_t>((ubSize - 2 * BANK_PAD) / bytesPerElem / TILE_ALIGN * TILE_ALIGN);

    // expert: tiles short enough that each core streams at least MIN_TILES_PER_CORE of
    // them (MTE2, V and MTE3 overlap) but never shorter than 512 B units.
    uint32_t tileAlign = SPLIT_BYTES / typeSize;
    tileLength = tileLength / tileAlign * tileAlign;
    uint32_t shareLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * alignNum;
    uint32_t overlapTile = (shareLength / MIN_TILES_PER_CORE + tileAlign - 1) / tileAlign * tileAlign;
    if (overlapTile < tileLength) {
        tileLength = overlapTile;
    }
    // expert: UB banks are 64 KB regions, and a copy waits while a vector instruction works
    // on its banks. Each tile parity's x, y and z get a region of their own (and the float
    // scratch the third), so one tile's copies run beside the other tile's math.
    uint32_t regionPad = 0;
    uint64_t regionTile = (UB_REGION - BANK_PAD) / ((INPUT_NUM + 1) * typeSize);
    if (computeInFloat) {
        uint64_t floatTile = (UB_REGION - BANK_PAD) / (INPUT_NUM * sizeof(float));
        regionTile = floatTile < regionTile ? floatTile : regionTile;
    }
    regionTile = regionTile / tileAlign * tileAlign;
    if (ubSize >= 3 * UB_REGION && regionTile > 0) {
        tileLength = regionTile < tileLength ? static_cast<uint32_t>(regionTile) : tileLength;
        regionPad = static_cast<uint32_t>(UB_REGION - BANK_PAD - (INPUT_NUM + 1) * static_cast<uint64_t>(tileLength) * typeSize);
    }
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;  // not even one aligned tile fits in the UB budget
    }
    tiling.set_regionPad(regionPad);

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
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
class MulCustom : public OpDef {
public:
    explicit MulCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MulCustom);
}  // namespace ops
