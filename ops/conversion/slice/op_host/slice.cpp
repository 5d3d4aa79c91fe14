// Host side of SliceCustom: the operator definition, output shape and tiling.
#include <algorithm>

#include "slice_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace {
// Python-style [begin:end:step] of an axis of length cols: false when empty or step < 1.
bool NormaliseSlice(int64_t cols, int64_t begin, int64_t end, int64_t step, int64_t& b, int64_t& n)
{
    if (step < 1 || cols <= 0) {
        return false;
    }
    b = begin < 0 ? begin + cols : begin;
    int64_t e = end < 0 ? end + cols : end;
    b = std::clamp<int64_t>(b, 0, cols);
    e = std::clamp<int64_t>(e, 0, cols);
    if (e <= b) {
        return false;
    }
    n = (e - b + step - 1) / step;
    return true;
}
}  // namespace

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t OFFSET_SIZE = 4;           // Gather's uint32 byte offsets
constexpr uint64_t MAX_BLOCK_COUNT = 4095;    // rows per DataCopyPad
constexpr uint64_t RESERVED_UB = 1024;

static uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SliceTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const int64_t* beginAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t* endAttr = context->GetAttrs()->GetAttrPointer<int64_t>(1);
    const int64_t* stepAttr = context->GetAttrs()->GetAttrPointer<int64_t>(2);
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() == 0 || beginAttr == nullptr || endAttr == nullptr ||
        stepAttr == nullptr || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    int64_t cols = shape.GetDim(shape.GetDimNum() - 1);
    int64_t begin = 0;
    int64_t outCols = 0;
    if (!NormaliseSlice(cols, *beginAttr, *endAttr, *stepAttr, begin, outCols)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t step = static_cast<uint64_t>(*stepAttr);
    uint64_t rows = shape.GetShapeSize() / cols;

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h).
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 4, 16, 64}, tuning::Role::CoreSplit));
    uint64_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    uint32_t usedCores = coreLimit < coreNum ? static_cast<uint32_t>(coreLimit) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Buffers per queue (tuning knob): two overlap copy in, gather and copy out of consecutive tiles.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    uint64_t budget = ubSize - RESERVED_UB;
    uint64_t alignNum = BLOCK_SIZE / typeSize;
    // UB bytes of one tile row producing `outs` outputs: step 1 copies through one queue;
    // a strided slice has the input span and the output queues and a row of gather offsets.
    auto rowBytes = [&](uint64_t outs, uint64_t& inPitch, uint64_t& outPitch) {
        outPitch = AlignUp(outs, alignNum);
        if (step == 1) {
            inPitch = outPitch;
            return inPitch * typeSize * bufferNum;
        }
        inPitch = AlignUp((outs - 1) * step + 1, alignNum);
        return (inPitch + outPitch) * typeSize * bufferNum + AlignUp(outs, BLOCK_SIZE / OFFSET_SIZE) * OFFSET_SIZE;
    };
    uint64_t inPitch = 0;
    uint64_t outPitch = 0;
    uint64_t chunkOut = static_cast<uint64_t>(outCols);
    uint64_t rowsPerTile = 1;
    uint64_t oneRow = rowBytes(chunkOut, inPitch, outPitch);
    if (oneRow <= budget) {
        rowsPerTile = budget / oneRow;
        // Most rows per tile (tuning knob; 0: as many as UB allows).
        uint32_t rowsCap = static_cast<uint32_t>(
            tuning::Knob("rows_per_tile_cap", 0, {0, 8, 32, 128, 512}, tuning::Role::TileSize));
        if (rowsCap != 0 && rowsCap < rowsPerTile) {
            rowsPerTile = rowsCap;
        }
        rowsPerTile = std::min<uint64_t>({rowsPerTile, MAX_BLOCK_COUNT, formerRows});
    } else {
        // Column chunks of one row: the most outputs whose tile fits, in whole 32 B blocks.
        chunkOut = budget / ((step * bufferNum + bufferNum) * typeSize + OFFSET_SIZE);
        chunkOut = chunkOut / BLOCK_SIZE * BLOCK_SIZE;
        while (chunkOut > 0 && rowBytes(chunkOut, inPitch, outPitch) > budget) {
            chunkOut -= BLOCK_SIZE;
        }
        if (chunkOut == 0) {
            return ge::GRAPH_FAILED;
        }
        rowBytes(chunkOut, inPitch, outPitch);
    }

    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_begin(static_cast<uint32_t>(begin));
    tiling.set_step(static_cast<uint32_t>(step));
    tiling.set_outCols(static_cast<uint32_t>(outCols));
    tiling.set_chunkOut(static_cast<uint32_t>(chunkOut));
    tiling.set_inPitch(static_cast<uint32_t>(inPitch));
    tiling.set_outPitch(static_cast<uint32_t>(outPitch));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_bufferNum(bufferNum);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is x with the last dimension replaced by the slice's length.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    const int64_t* begin = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t* end = context->GetAttrs()->GetAttrPointer<int64_t>(1);
    const int64_t* step = context->GetAttrs()->GetAttrPointer<int64_t>(2);
    if (x == nullptr || y == nullptr || x->GetDimNum() == 0 || begin == nullptr || end == nullptr || step == nullptr) {
        return GRAPH_FAILED;
    }
    size_t last = x->GetDimNum() - 1;
    int64_t b = 0;
    int64_t n = 0;
    if (!NormaliseSlice(x->GetDim(last), *begin, *end, *step, b, n)) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(0);
    for (size_t d = 0; d < last; ++d) {
        y->AppendDim(x->GetDim(d));
    }
    y->AppendDim(n);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SliceCustom : public OpDef {
public:
    explicit SliceCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("begin").AttrType(OPTIONAL).Int(0);
        this->Attr("end").AttrType(OPTIONAL).Int(2147483647);
        this->Attr("step").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SliceCustom);
}  // namespace ops
