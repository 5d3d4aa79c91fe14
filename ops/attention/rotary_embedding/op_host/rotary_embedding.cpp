// Host side of RotaryEmbeddingCustom: the operator definition and the tiling function.
#include "rotary_embedding_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t MAX_REPEAT = 255;      // heads of a tile are the repeats of one vector instruction
constexpr uint32_t MAX_REP_STRIDE = 255;  // a head's float row pitch in 32 B blocks
constexpr uint64_t MAX_BLOCKS = 4095;     // blocks of one DataCopyPad

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RotaryEmbeddingTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& cosShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tokens = shape.GetDim(0);
    uint32_t heads = shape.GetDim(1);
    uint32_t headDim = shape.GetDim(2);
    if (headDim == 0 || headDim % 2 != 0 || tokens == 0 || heads == 0 ||
        cosShape.GetShapeSize() != static_cast<int64_t>(tokens) * headDim) {
        return ge::GRAPH_FAILED;
    }
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t half = headDim / 2;
    uint32_t halfAligned = (half + alignNum - 1) / alignNum * alignNum;
    uint32_t rowPitch = 2 * halfAligned;  // one head in UB: [x1 | pad | x2 | pad]
    if (rowPitch * FLOAT_SIZE / BLOCK_SIZE > MAX_REP_STRIDE) {
        return ge::GRAPH_FAILED;  // head_dim above 2000: no single repeat stride spans a head
    }

    // Buffers per queue (tuning knob, tiling/tuning_knobs.h): two overlap copy-in,
    // compute and copy-out of consecutive tiles; one gives tiles twice as many heads.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    // Per token: cos and sin as loaded (queued) and in float.
    uint64_t tokenBytes = static_cast<uint64_t>(rowPitch) * 2 * (bufferNum * typeSize + FLOAT_SIZE);
    // Per head: the x and y queues, a float scratch row, and a float copy of x for 16-bit types.
    uint64_t headBytes = static_cast<uint64_t>(rowPitch) * (2 * bufferNum * typeSize + FLOAT_SIZE);
    if (typeSize != FLOAT_SIZE) {
        headBytes += static_cast<uint64_t>(rowPitch) * FLOAT_SIZE;
    }
    if (tokenBytes + headBytes > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t headsFit = static_cast<uint32_t>((ubSize - tokenBytes) / headBytes);
    // Most heads per tile (tuning knob; 0: as many as UB and the repeat count allow).
    // Fewer heads per tile start the copy/compute overlap sooner and spread a short
    // tensor over more cores.
    uint32_t headsCap = static_cast<uint32_t>(
        tuning::Knob("heads_per_tile_cap", 0, {0, 8, 16, 32, 64, 128, 256}, tuning::Role::TileSize));
    uint32_t headsPerTile = headsFit < MAX_REPEAT ? headsFit : MAX_REPEAT;
    if (headsCap != 0 && headsCap < headsPerTile) {
        headsPerTile = headsCap;
    }
    uint32_t tokensPerTile = 1;
    if (headsPerTile >= heads) {
        // Whole tokens per tile; a tile's half rows are at most MAX_BLOCKS copy blocks.
        uint64_t perToken = tokenBytes + headBytes * heads;
        uint64_t fit = ubSize / perToken;
        uint64_t byBlocks = MAX_BLOCKS / (2ULL * heads);
        uint64_t byCap = headsCap != 0 ? (headsCap > heads ? headsCap / heads : 1) : fit;
        uint64_t n = fit < byBlocks ? fit : byBlocks;
        n = n < byCap ? n : byCap;
        tokensPerTile = n == 0 ? 1 : static_cast<uint32_t>(n);
        headsPerTile = heads;
    }
    // Chunks of a token as even as possible.
    uint32_t chunksPerToken = (heads + headsPerTile - 1) / headsPerTile;
    headsPerTile = (heads + chunksPerToken - 1) / chunksPerToken;

    uint64_t units = static_cast<uint64_t>(tokens) * chunksPerToken;
    uint32_t usedCores = units < coreNum ? static_cast<uint32_t>(units) : coreNum;
    uint32_t tailUnits = static_cast<uint32_t>(units / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(units % usedCores);
    uint32_t formerUnits = tailUnits + (formerNum > 0 ? 1 : 0);
    if (tokensPerTile > formerUnits) {
        tokensPerTile = formerUnits;
    }

    tiling.set_heads(heads);
    tiling.set_headDim(headDim);
    tiling.set_halfAligned(halfAligned);
    tiling.set_headsPerTile(headsPerTile);
    tiling.set_chunksPerToken(chunksPerToken);
    tiling.set_formerNum(formerNum);
    tiling.set_formerUnits(formerUnits);
    tiling.set_tokensPerTile(tokensPerTile);
    tiling.set_tailUnits(tailUnits);
    tiling.set_bufferNum(bufferNum);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RotaryEmbeddingCustom : public OpDef {
public:
    explicit RotaryEmbeddingCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("cos")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("sin")
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
OP_ADD(RotaryEmbeddingCustom);
}  // namespace ops
