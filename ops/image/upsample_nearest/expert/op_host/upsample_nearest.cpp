// Host side of UpsampleNearestCustom (expert): the operator definition, output shape and tiling.
#include <cmath>

#include "upsample_nearest_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t REPEAT_SIZE = 256;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model) and the
// single-core cost of one output element (Gather and the GM write, ~0.25 cycles).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double CYCLES_PER_OUT_ELEM = 0.25;
constexpr uint32_t MIN_TILES_PER_CORE = 2;  // the next tile's copy overlaps this tile's gathers

// Output size as PyTorch computes it from a scale factor.
static int64_t ScaledSize(int64_t in, float scale) { return static_cast<int64_t>(std::floor(in * static_cast<double>(scale))); }

// UB layout for chunks of chunkW output columns (outW: whole rows).
struct RowLayout {
    uint32_t chunkW = 0;
    uint32_t inPitch = 0;     // input span of a chunk, elements, 32 B multiple
    uint32_t outPitch = 0;    // elements, 256 B multiple
    uint64_t fixedBytes = 0;  // the column offset table (uint32 per output column) and its float scratch
    uint64_t rowBytes = 0;    // per tile row: a double-buffered input span and output row
};

static RowLayout Layout(uint32_t chunkW, uint32_t inW, uint32_t outW, float invScaleW, uint32_t typeSize)
{
    RowLayout l;
    l.chunkW = chunkW;
    // Output columns [c, c + chunkW) read input columns floor(c * inv) .. floor((c + chunkW - 1) * inv):
    // at most ceil((chunkW - 1) * inv) + 1 of them, plus one for the float rounding of each product.
    uint64_t span = inW;
    if (chunkW < outW) {
        span = static_cast<uint64_t>(std::ceil((chunkW - 1) * static_cast<double>(invScaleW))) + 3;
        span = span < inW ? span : inW;
    }
    l.inPitch = static_cast<uint32_t>((span * typeSize + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE / typeSize);
    l.outPitch = (chunkW * typeSize + REPEAT_SIZE - 1) / REPEAT_SIZE * REPEAT_SIZE / typeSize;
    l.fixedBytes = static_cast<uint64_t>(l.outPitch) * FLOAT_SIZE * 2;
    l.rowBytes = (static_cast<uint64_t>(l.inPitch) + l.outPitch) * typeSize * BUFFER_NUM;
    return l;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    UpsampleNearestTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* scaleH = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* scaleW = context->GetAttrs()->GetAttrPointer<float>(1);
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() != 4 || scaleH == nullptr || scaleW == nullptr ||
        !(*scaleH > 0.0f) || !(*scaleW > 0.0f)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t inH = shape.GetDim(2);
    uint32_t inW = shape.GetDim(3);
    int64_t outH = ScaledSize(inH, *scaleH);
    int64_t outW = ScaledSize(inW, *scaleW);
    if (outH <= 0 || outW <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(0) * shape.GetDim(1) * static_cast<uint32_t>(outH);

    // expert: core count from the amount of work. W cycles of single-core work over k cores
    // cost W / k + k * launch, best at k = sqrt(W / launch).
    double work = static_cast<double>(rows) * static_cast<double>(outW) * CYCLES_PER_OUT_ELEM;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = rows < wantCores ? rows : wantCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Column chunks: the whole output row when it fits in UB with its input row, else the
    // widest chunk (a multiple of 256 B) that does, so any width runs.
    const float invScaleW = static_cast<float>(1.0 / *scaleW);
    RowLayout lay = Layout(static_cast<uint32_t>(outW), inW, static_cast<uint32_t>(outW), invScaleW, typeSize);
    if (lay.fixedBytes + lay.rowBytes > ubSize) {
        const uint32_t granule = REPEAT_SIZE / typeSize;
        const double perColumn = FLOAT_SIZE * 2.0 + typeSize * BUFFER_NUM * (1.0 + invScaleW);
        uint64_t fit = static_cast<uint64_t>(static_cast<double>(ubSize) / perColumn) / granule * granule;
        uint64_t below = (static_cast<uint64_t>(outW) - 1) / granule * granule;  // always fewer than outW
        fit = fit < below ? fit : below;
        uint32_t chunkW = static_cast<uint32_t>(fit > granule ? fit : granule);
        lay = Layout(chunkW, inW, static_cast<uint32_t>(outW), invScaleW, typeSize);
        while (chunkW > granule && lay.fixedBytes + lay.rowBytes > ubSize) {
            chunkW -= granule;
            lay = Layout(chunkW, inW, static_cast<uint32_t>(outW), invScaleW, typeSize);
        }
        if (lay.fixedBytes + lay.rowBytes > ubSize) {
            return ge::GRAPH_FAILED;  // even one granule of columns does not fit (extreme downscale)
        }
    }
    uint64_t rowsPerTile = (ubSize - lay.fixedBytes) / lay.rowBytes;
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }
    uint64_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
    if (rowsPerTile > overlapRows) {
        rowsPerTile = overlapRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    // Plane mode: with at least as many planes (N * C) as cores and planes small enough that
    // whole ones fit in UB, a tile is planesPerTile whole planes. Its input rows come in one
    // copy, one Gather through a table built once per core (output element -> byte offset of
    // its source in the tile) makes every output row, and one copy takes them out: a few
    // instructions per tile instead of two per output row, which matters for short rows.
    uint32_t inPitch = lay.inPitch;
    uint32_t outPitch = lay.outPitch;
    uint32_t planeMode = 0;
    uint32_t planesPerTile = 0;
    uint32_t planes = shape.GetDim(0) * shape.GetDim(1);
    // expert: only with at least MIN_TILES_PER_CORE planes per core, so that tiles overlap.
    if (lay.chunkW == outW && planes >= usedCores * MIN_TILES_PER_CORE) {
        uint32_t outPitchP = (static_cast<uint32_t>(outW) * typeSize + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE / typeSize;
        // Fixed: float column coordinates and their byte offsets.
        uint64_t fixedP = static_cast<uint64_t>(outPitchP) * FLOAT_SIZE * 2;
        // Per plane: double-buffered input and output rows, and the output rows' table entries.
        uint64_t perPlane = static_cast<uint64_t>(inH) * inPitch * typeSize * BUFFER_NUM +
                            static_cast<uint64_t>(outH) * outPitchP * (typeSize * BUFFER_NUM + FLOAT_SIZE);
        uint64_t k = ubSize > fixedP ? (ubSize - fixedP) / perPlane : 0;
        uint64_t perCore = (planes + usedCores - 1) / usedCores;
        k = k < perCore ? k : perCore;
        k = k < MAX_ROWS_PER_COPY / inH ? k : MAX_ROWS_PER_COPY / inH;
        k = k < MAX_ROWS_PER_COPY / static_cast<uint64_t>(outH) ? k : MAX_ROWS_PER_COPY / static_cast<uint64_t>(outH);
        uint64_t overlapPlanes = (perCore + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
        k = k < overlapPlanes ? k : overlapPlanes;
        if (k >= 1) {
            planeMode = 1;
            planesPerTile = static_cast<uint32_t>(k);
            outPitch = outPitchP;
            formerNum = planes % usedCores;  // in planes from here on
            tailRows = planes / usedCores;
            formerRows = tailRows + (formerNum > 0 ? 1 : 0);
            rowsPerTile = 0;
        }
    }

    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(static_cast<uint32_t>(outH));
    tiling.set_outW(static_cast<uint32_t>(outW));
    tiling.set_chunkW(lay.chunkW);
    tiling.set_inPitch(inPitch);
    tiling.set_outPitch(outPitch);
    tiling.set_invScaleH(static_cast<float>(1.0 / *scaleH));
    tiling.set_invScaleW(invScaleW);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_planeMode(planeMode);
    tiling.set_planesPerTile(planesPerTile);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is [N, C, floor(H * scale_h), floor(W * scale_w)].
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const float* scaleH = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* scaleW = context->GetAttrs()->GetAttrPointer<float>(1);
    if (xShape->GetDimNum() != 4 || scaleH == nullptr || scaleW == nullptr || !(*scaleH > 0.0f) ||
        !(*scaleW > 0.0f)) {
        return GRAPH_FAILED;
    }
    int64_t outH = optiling::ScaledSize(xShape->GetDim(2), *scaleH);
    int64_t outW = optiling::ScaledSize(xShape->GetDim(3), *scaleW);
    if (outH <= 0 || outW <= 0) {
        return GRAPH_FAILED;
    }
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(0);
    yShape->AppendDim(xShape->GetDim(0));
    yShape->AppendDim(xShape->GetDim(1));
    yShape->AppendDim(outH);
    yShape->AppendDim(outW);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class UpsampleNearestCustom : public OpDef {
public:
    explicit UpsampleNearestCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale_h").AttrType(OPTIONAL).Float(2.0);
        this->Attr("scale_w").AttrType(OPTIONAL).Float(2.0);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpsampleNearestCustom);
}  // namespace ops
