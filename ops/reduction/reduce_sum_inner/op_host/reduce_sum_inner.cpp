// Host side of ReduceSumInnerCustom: the operator definition, output shape and tiling.
// The reduced axis is the `axis` attribute (negative counts from the end); it may not be
// the last axis, whose sum is a row reduction (reduce_sum) with a different kernel.
#include "reduce_sum_inner_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t CHUNK_ALIGN = 64;         // elements: whole 256 B float repeats per chunk
constexpr uint32_t MIN_ROWS = 8;             // rows per tile a chunk must leave room for
constexpr uint32_t MIN_SPLIT_CHUNK = 512;    // shortest chunk made only to feed more cores
constexpr uint32_t MAX_BLOCK_COUNT = 4095;   // DataCopyPad blockCount limit: rows per copy
constexpr uint64_t RESERVED_UB = 1024;

// [A, R, B] view of `shape` around `axis`; false when axis is out of range or the last one.
static bool SplitAxis(const gert::Shape& shape, int64_t axis, uint64_t& outer, uint64_t& reduce, uint64_t& inner)
{
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis + 1 >= rank) {
        return false;
    }
    outer = 1;
    inner = 1;
    for (int64_t d = 0; d < axis; ++d) {
        outer *= shape.GetDim(d);
    }
    for (int64_t d = axis + 1; d < rank; ++d) {
        inner *= shape.GetDim(d);
    }
    reduce = shape.GetDim(axis);
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceSumInnerTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const int64_t* axis = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint64_t outer = 0;
    uint64_t reduce = 0;
    uint64_t inner = 0;
    if (typeSize == 0 || coreNum == 0 || axis == nullptr || ubSize <= RESERVED_UB ||
        !SplitAxis(shape, *axis, outer, reduce, inner)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    // Per element of a chunk: per tile row the double-buffered input (and its float copy
    // for 16-bit dtypes); once, the float accumulator and the double-buffered output.
    uint64_t rowBytesPerElem = typeSize * BUFFER_NUM + (typeSize == FLOAT_SIZE ? 0 : FLOAT_SIZE);
    uint64_t fixedPerElem = FLOAT_SIZE + typeSize * BUFFER_NUM;
    uint64_t budget = ubSize - RESERVED_UB;
    uint64_t maxChunk = budget / (MIN_ROWS * rowBytesPerElem + fixedPerElem) / CHUNK_ALIGN * CHUNK_ALIGN;
    uint64_t chunkLen = inner < maxChunk ? inner : maxChunk;
    uint64_t chunkNum = (inner + chunkLen - 1) / chunkLen;
    // Few (a, chunk) items for many cores: cut B finer, down to MIN_SPLIT_CHUNK.
    if (outer * chunkNum < coreNum && chunkLen > MIN_SPLIT_CHUNK) {
        uint64_t wantChunks = (coreNum + outer - 1) / outer;
        uint64_t finer = (inner + wantChunks - 1) / wantChunks;
        finer = (finer + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
        chunkLen = finer > MIN_SPLIT_CHUNK ? finer : MIN_SPLIT_CHUNK;
        if (chunkLen > inner) {
            chunkLen = inner;
        }
        chunkNum = (inner + chunkLen - 1) / chunkLen;
    }
    uint64_t chunkPitch = (chunkLen + alignNum - 1) / alignNum * alignNum;
    uint64_t items = outer * chunkNum;
    uint32_t usedCores = static_cast<uint32_t>(items < coreNum ? items : coreNum);
    uint64_t rowsFit = (budget - chunkPitch * fixedPerElem) / (chunkPitch * rowBytesPerElem);
    uint64_t rowsPerTile = rowsFit < MAX_BLOCK_COUNT ? rowsFit : MAX_BLOCK_COUNT;
    if (rowsPerTile > reduce) {
        rowsPerTile = reduce;
    }

    tiling.set_reduceLen(static_cast<uint32_t>(reduce));
    tiling.set_innerLen(static_cast<uint32_t>(inner));
    tiling.set_chunkLen(static_cast<uint32_t>(chunkLen));
    tiling.set_chunkPitch(static_cast<uint32_t>(chunkPitch));
    tiling.set_chunkNum(static_cast<uint32_t>(chunkNum));
    tiling.set_formerNum(static_cast<uint32_t>(items % usedCores));
    tiling.set_formerItems(static_cast<uint32_t>(items / usedCores + (items % usedCores > 0 ? 1 : 0)));
    tiling.set_tailItems(static_cast<uint32_t>(items / usedCores));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is x without the reduced axis.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    const int64_t* axisAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (x == nullptr || y == nullptr || axisAttr == nullptr) {
        return GRAPH_FAILED;
    }
    int64_t rank = static_cast<int64_t>(x->GetDimNum());
    int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
    if (axis < 0 || axis + 1 >= rank) {
        return GRAPH_FAILED;  // the last axis is reduce_sum's job
    }
    y->SetDimNum(0);
    for (int64_t d = 0; d < rank; ++d) {
        if (d != axis) {
            y->AppendDim(x->GetDim(d));
        }
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReduceSumInnerCustom : public OpDef {
public:
    explicit ReduceSumInnerCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axis").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceSumInnerCustom);
}  // namespace ops
