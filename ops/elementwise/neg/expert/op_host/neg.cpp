// Host side of NegCustom (expert): the operator definition and the tiling function.
// The tensor is split across cores in 512 B units (every core's slice and every full tile
// start 512 B-aligned: 32 B-aligned GM bursts reach ~70 % of the bandwidth), on as many
// cores as the work pays for, and each core's slice in at least MIN_TILES_PER_CORE tiles.
#include "neg_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t SPLIT_BYTES = 512;
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;  // ~0.03 us per further block started
constexpr double MTE_BYTES_PER_CYCLE = 46.0;     // one core's GM<->UB copy rate
constexpr uint32_t MIN_TILES_PER_CORE = 4;       // enough tiles for MTE2, V and MTE3 to overlap
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INPUT_NUM = 1;
constexpr uint32_t TILE_ALIGN = 256;  // elements: a multiple of 512 B for every dtype

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    NegTilingData tiling;
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
    // Split whole 512 B units across cores so every core starts 512 B-aligned; the first
    // `formerNum` cores take one unit more. The kernel cuts the last core's share at the
    // end of the tensor.
    uint32_t alignNum = SPLIT_BYTES / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    // Core count from the work: W cycles of one core's copy traffic (the inputs in, y out)
    // over k cores cost W / k + k * launch, least at k = sqrt(W / launch). A decode-sized
    // tensor pays more for starting every core than it saves.
    double work = static_cast<double>(totalLength) * (INPUT_NUM + 1) * typeSize / MTE_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
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
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);
    // At least MIN_TILES_PER_CORE tiles per core, so the first copy-in and the last copy-out
    // (which nothing overlaps) are short.
    uint32_t shareLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * alignNum;
    uint32_t overlapTile = (shareLength / MIN_TILES_PER_CORE + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
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
class NegCustom : public OpDef {
public:
    explicit NegCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(NegCustom);
}  // namespace ops
