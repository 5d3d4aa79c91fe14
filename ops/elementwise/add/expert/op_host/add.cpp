// Host side of AddCustom (expert): the operator definition and the tiling function.
// Expert tiling: the core count follows the data size (each extra core costs launch
// time), cores split the tensor in 512 B units, and tiles are sized so every core
// streams several tiles through its double buffers.
#include <cmath>
#include "add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SPLIT_BYTES = 512;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t QUEUE_NUM = 3;  // x, y and z each have a double-buffered queue
constexpr uint32_t BANK_PAD = 256;  // bytes the kernel inserts before y's buffers (see kernel)
constexpr uint32_t TILE_ALIGN_BYTES = 512;
// GM traffic one more core must carry to pay for its launch: ~0.03 us (55 cycles) of launch
// per extra block (each further block starts that much later, the per-block launch step of
// the calibrated 910B model) against ~46 B/cycle of MTE2 per core; the best core count for
// W bytes of traffic is about sqrt(W / CORE_TRAFFIC_UNIT).
constexpr double CORE_TRAFFIC_UNIT = 2530.0;
constexpr uint32_t MIN_TILES_PER_CORE = 4;  // enough tiles for MTE2/V/MTE3 to overlap

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    // expert: core count from the data size. A µs-scale add pays more for launching 48
    // cores than it saves; beyond ~18 cores the shared HBM is the limit anyway.
    double traffic = static_cast<double>(totalLength) * typeSize * QUEUE_NUM;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(traffic / CORE_TRAFFIC_UNIT)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);

    // expert: 512 B-aligned core split. Whole 512 B units per core, so every core's
    // slice (and every full tile) starts on a 512 B boundary: 32 B-aligned bursts reach
    // only ~70 % of the bandwidth. The first `formerNum` cores take one unit more; the
    // kernel cuts the last core's share at the end of the tensor.
    uint32_t alignNum = SPLIT_BYTES / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < wantCores ? totalBlocks : wantCores;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // The largest tile that lets every queue double-buffer inside UB (after the bank
    // pad), in whole 512 B units, but no longer than a share split into
    // MIN_TILES_PER_CORE tiles so the copies and the add overlap.
    uint32_t tileAlign = TILE_ALIGN_BYTES / typeSize;
    uint64_t tileBytes = (ubSize - BANK_PAD) / (BUFFER_NUM * QUEUE_NUM) / TILE_ALIGN_BYTES * TILE_ALIGN_BYTES;
    uint32_t tileLength = static_cast<uint32_t>(tileBytes / typeSize);
    uint32_t shareLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * alignNum;
    uint32_t overlapTile = (shareLength / MIN_TILES_PER_CORE + tileAlign - 1) / tileAlign * tileAlign;
    if (overlapTile < tileLength) {
        tileLength = overlapTile;
    }

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
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}  // namespace ops
