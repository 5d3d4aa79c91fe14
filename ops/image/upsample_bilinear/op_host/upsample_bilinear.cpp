// Host side of UpsampleBilinearCustom: the operator definition, output shape and tiling.
#include <cmath>

#include "upsample_bilinear_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t FLOATS_PER_REPEAT = 64;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t TABLES = 4;           // two column offset tables and two column weights
constexpr uint32_t FLOAT_ROWS = 3;       // the vertical blend and the two gathered neighbours
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t PLANE_ROW_TABLES = 6;  // plane mode: float rows per output row, at each pitch

// Output size as PyTorch computes it from a scale factor.
static int64_t ScaledSize(int64_t in, float scale) { return static_cast<int64_t>(std::floor(in * static_cast<double>(scale))); }

// The source-coordinate ratio PyTorch uses for one axis.
static float Ratio(int64_t in, int64_t out, float scale, bool alignCorners)
{
    if (alignCorners) {
        return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    }
    return static_cast<float>(1.0 / scale);
}

// UB layout for chunks of chunkW output columns (outW: whole rows).
struct RowLayout {
    uint32_t chunkW = 0;
    uint32_t inPitch = 0;     // input span of a chunk, floats, 64 multiple
    uint32_t outPitch = 0;    // floats, 64 multiple
    uint64_t fixedBytes = 0;  // the column tables and float rows for the blend
    uint64_t rowBytes = 0;    // per tile row: two double-buffered input spans and an output row
};

static RowLayout Layout(uint32_t chunkW, uint32_t inW, uint32_t outW, float ratioW, uint32_t typeSize)
{
    RowLayout l;
    l.chunkW = chunkW;
    // Output columns [c, c + chunkW) read input columns i0(c) .. i0(c + chunkW - 1) + 1: at most
    // ceil((chunkW - 1) * ratio) + 2 of them, plus two for the float rounding of the coordinates.
    uint64_t span = inW;
    if (chunkW < outW) {
        span = static_cast<uint64_t>(std::ceil((chunkW - 1) * static_cast<double>(ratioW))) + 4;
        span = span < inW ? span : inW;
    }
    l.inPitch = static_cast<uint32_t>((span + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT);
    l.outPitch = (chunkW + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
    l.fixedBytes = static_cast<uint64_t>(l.outPitch) * FLOAT_SIZE * (TABLES + FLOAT_ROWS - 1) +
                   static_cast<uint64_t>(l.inPitch) * FLOAT_SIZE * 3;
    l.rowBytes = (static_cast<uint64_t>(l.inPitch) * 2 + l.outPitch) * typeSize * BUFFER_NUM;
    return l;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    UpsampleBilinearTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* scaleH = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* scaleW = context->GetAttrs()->GetAttrPointer<float>(1);
    const bool* alignCorners = context->GetAttrs()->GetAttrPointer<bool>(2);
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() != 4 || scaleH == nullptr || scaleW == nullptr ||
        alignCorners == nullptr || !(*scaleH > 0.0f) || !(*scaleW > 0.0f)) {
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

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Column chunks: the whole output row when it fits in UB with its two input rows, else
    // the widest chunk (a multiple of 64 columns) that does, so any width runs.
    const float ratioW = Ratio(inW, outW, *scaleW, *alignCorners);
    RowLayout lay = Layout(static_cast<uint32_t>(outW), inW, static_cast<uint32_t>(outW), ratioW, typeSize);
    if (lay.fixedBytes + lay.rowBytes > ubSize) {
        const double perColumn = FLOAT_SIZE * (TABLES + FLOAT_ROWS - 1) + typeSize * BUFFER_NUM +
                                 (FLOAT_SIZE * 3.0 + typeSize * 2.0 * BUFFER_NUM) * ratioW;
        uint64_t fit = static_cast<uint64_t>(static_cast<double>(ubSize) / perColumn) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        uint64_t below = (static_cast<uint64_t>(outW) - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;  // fewer than outW
        fit = fit < below ? fit : below;
        uint32_t chunkW = static_cast<uint32_t>(fit > FLOATS_PER_REPEAT ? fit : FLOATS_PER_REPEAT);
        lay = Layout(chunkW, inW, static_cast<uint32_t>(outW), ratioW, typeSize);
        while (chunkW > FLOATS_PER_REPEAT && lay.fixedBytes + lay.rowBytes > ubSize) {
            chunkW -= FLOATS_PER_REPEAT;
            lay = Layout(chunkW, inW, static_cast<uint32_t>(outW), ratioW, typeSize);
        }
        if (lay.fixedBytes + lay.rowBytes > ubSize) {
            return ge::GRAPH_FAILED;  // even 64 columns do not fit (extreme downscale)
        }
    }
    uint64_t rowsPerTile = (ubSize - lay.fixedBytes) / lay.rowBytes;
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    // Plane mode: with at least as many planes (N * C) as cores and planes small enough that
    // whole ones fit in UB, a tile is planesPerTile whole planes. Its input rows come in one
    // copy; gathers through tables built once per core (source row offsets and weights per
    // output row, column offsets and weights per output column) blend the whole tile, and one
    // copy takes it out: a few instructions per tile instead of about a dozen per output row,
    // which matters for short rows.
    uint32_t inPitch = lay.inPitch;
    uint32_t outPitch = lay.outPitch;
    uint32_t planeMode = 0;
    uint32_t planesPerTile = 0;
    uint32_t planes = shape.GetDim(0) * shape.GetDim(1);
    if (lay.chunkW == outW && planes >= usedCores) {
        uint32_t alignNum = BLOCK_SIZE / typeSize;
        uint32_t inPitchP = (inW + alignNum - 1) / alignNum * alignNum;
        uint32_t outPitchP = (static_cast<uint32_t>(outW) + alignNum - 1) / alignNum * alignNum;
        // Fixed: the column coordinates and the element offsets within an input row.
        uint64_t fixedP = (static_cast<uint64_t>(outPitchP) + inPitchP) * FLOAT_SIZE;
        // Per output row: PLANE_ROW_TABLES float rows of input pitch (two source-row offset
        // tables, two weights, two gathered rows) and of output pitch (two column offset
        // tables, two weights, two gathered rows), and the double-buffered output row.
        // Per input row: the double-buffered input row and, for 16-bit dtypes, its float copy.
        uint64_t outRowBytes = (static_cast<uint64_t>(inPitchP) + outPitchP) * FLOAT_SIZE * PLANE_ROW_TABLES +
                               static_cast<uint64_t>(outPitchP) * typeSize * BUFFER_NUM;
        uint64_t inRowBytes = static_cast<uint64_t>(inPitchP) * (typeSize * BUFFER_NUM + (typeSize == FLOAT_SIZE ? 0 : FLOAT_SIZE));
        uint64_t perPlane = outRowBytes * static_cast<uint64_t>(outH) + inRowBytes * inH;
        uint64_t k = ubSize > fixedP ? (ubSize - fixedP) / perPlane : 0;
        uint64_t perCore = (planes + usedCores - 1) / usedCores;
        k = k < perCore ? k : perCore;
        k = k < MAX_ROWS_PER_COPY / inH ? k : MAX_ROWS_PER_COPY / inH;
        k = k < MAX_ROWS_PER_COPY / static_cast<uint64_t>(outH) ? k : MAX_ROWS_PER_COPY / static_cast<uint64_t>(outH);
        if (k >= 1) {
            planeMode = 1;
            planesPerTile = static_cast<uint32_t>(k);
            inPitch = inPitchP;
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
    tiling.set_alignCorners(*alignCorners ? 1 : 0);
    tiling.set_ratioH(Ratio(inH, outH, *scaleH, *alignCorners));
    tiling.set_ratioW(ratioW);
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
class UpsampleBilinearCustom : public OpDef {
public:
    explicit UpsampleBilinearCustom(const char* name) : OpDef(name)
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
        this->Attr("align_corners").AttrType(OPTIONAL).Bool(false);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpsampleBilinearCustom);
}  // namespace ops
