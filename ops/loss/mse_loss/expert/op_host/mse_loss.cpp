// Host side of MseLossCustom (expert): the operator definition, output shape and tiling.
// The inputs are split across cores in 512 B units (every core's slice and every full tile
// start 512 B-aligned), on as many cores as the work pays for, each core's slice in at
// least MIN_TILES_PER_CORE tiles. A reduction on one core needs no partial sums in GM.
#include <cstring>

#include "mse_loss_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 256;     // elements: a multiple of 512 B for every dtype
constexpr uint32_t SPLIT_BYTES = 512;
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;  // ~0.03 us per further block started
constexpr double MTE_BYTES_PER_CYCLE = 46.0;     // one core's GM<->UB copy rate
constexpr uint32_t MIN_TILES_PER_CORE = 4;       // enough tiles for MTE2, V and MTE3 to overlap
constexpr uint32_t REDUCE_NONE = 0;
constexpr uint32_t REDUCE_MEAN = 1;
constexpr uint32_t REDUCE_SUM = 2;
constexpr uint64_t RESERVED_UB = 1024;   // result, accumulator and output blocks, allocator slack

// "none", "mean" or "sum" as the kernel's mode number; false for anything else.
static bool ParseReduction(const char* text, uint32_t& mode)
{
    if (text == nullptr || std::strcmp(text, "mean") == 0) {
        mode = REDUCE_MEAN;
    } else if (std::strcmp(text, "sum") == 0) {
        mode = REDUCE_SUM;
    } else if (std::strcmp(text, "none") == 0) {
        mode = REDUCE_NONE;
    } else {
        return false;
    }
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MseLossTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t labelLength = context->GetInputShape(1)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t reduction = REDUCE_MEAN;
    if (!ParseReduction(context->GetAttrs()->GetStr(0), reduction)) {
        return ge::GRAPH_FAILED;  // reduction must be none, mean or sum
    }
    // Core 0 also holds every core's 32 B partial-sum block.
    uint64_t reservedUb = RESERVED_UB + static_cast<uint64_t>(coreNum) * BLOCK_SIZE;
    if (typeSize == 0 || coreNum == 0 || totalLength == 0 || labelLength != totalLength || ubSize <= reservedUb) {
        return ge::GRAPH_FAILED;
    }
    // Core count from the work: W cycles of one core's copy traffic (predict and label in,
    // y out for "none") over k cores cost W / k + k * launch, least at k = sqrt(W / launch).
    uint32_t alignNum = SPLIT_BYTES / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    double tensors = reduction == REDUCE_NONE ? 3.0 : 2.0;
    double work = static_cast<double>(totalLength) * tensors * typeSize / MTE_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = totalBlocks < wantCores ? totalBlocks : wantCores;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // Per element of a tile: double-buffered predict and label, double-buffered output
    // (reduction "none" only), a float difference tile, float copies of both inputs for
    // 16-bit dtypes, and the reduction's first-pass workspace (one float per 64).
    uint64_t outBytes = reduction == REDUCE_NONE ? BUFFER_NUM * typeSize : 0;
    uint32_t floatTiles = typeSize == sizeof(float) ? 1 : 2;
    uint64_t bytesPerElem = BUFFER_NUM * 2 * typeSize + outBytes + floatTiles * sizeof(float) + 1;
    uint32_t tileLength = static_cast<uint32_t>((ubSize - reservedUb) / bytesPerElem / TILE_ALIGN * TILE_ALIGN);
    // "none" streams an output: at least MIN_TILES_PER_CORE tiles per core, so the first
    // copy-in and the last copy-out (which nothing overlaps) are short. The reductions have
    // no copy-out to overlap and pay a ReduceSum per tile: they keep the longest tiles
    // (measured: sd15_latent_b8 3.69 us with them, 4.01 us with four tiles per core).
    uint32_t minTiles = reduction == REDUCE_NONE ? MIN_TILES_PER_CORE : 1;
    uint32_t shareLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * alignNum;
    uint32_t overlapTile = (shareLength / minTiles + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    if (overlapTile < tileLength) {
        tileLength = overlapTile;
    }
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
    tiling.set_tileLength(tileLength);
    tiling.set_usedCores(usedCores);
    tiling.set_reduction(reduction);
    tiling.set_scale(reduction == REDUCE_MEAN ? 1.0f / static_cast<float>(totalLength) : 1.0f);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // One 32 B block per core for its float partial sum.
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = reduction == REDUCE_NONE ? 0 : static_cast<size_t>(usedCores) * BLOCK_SIZE;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// "none" keeps predict's shape; "mean" and "sum" give a scalar (no dimensions).
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    uint32_t mode = 0;
    if (x == nullptr || y == nullptr || !optiling::ParseReduction(context->GetAttrs()->GetStr(0), mode)) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(0);
    if (mode == optiling::REDUCE_NONE) {
        for (size_t d = 0; d < x->GetDimNum(); ++d) {
            y->AppendDim(x->GetDim(d));
        }
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MseLossCustom : public OpDef {
public:
    explicit MseLossCustom(const char* name) : OpDef(name)
    {
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("label")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MseLossCustom);
}  // namespace ops
