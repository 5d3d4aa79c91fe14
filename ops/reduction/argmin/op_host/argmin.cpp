// Host side of ArgMinCustom: the operator definition, output shape and tiling.
#include "argmin_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t REPEAT_SIZE = 256;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t INDEX_SIZE = 4;            // int32 output
constexpr uint32_t MAX_BLOCK_COUNT = 4095;    // DataCopyPad blockCount limit: rows per copy
constexpr uint32_t HALF_INDEX_LIMIT = 65535;  // a float16 ReduceMin returns its index in 16 bits
constexpr uint32_t CHUNK_RESULTS = 1024;      // results per output copy when rows are chunked
constexpr uint64_t RESERVED_UB = 1024;        // result block and allocator slack

static uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Bytes of ReduceMin's work buffer for `len` elements of `size` bytes: a value and an index per repeat.
static uint64_t WorkBytes(uint64_t len, uint32_t size)
{
    uint64_t repeats = (len * size + REPEAT_SIZE - 1) / REPEAT_SIZE;
    return AlignUp(2 * repeats * size, BLOCK_SIZE) + BLOCK_SIZE;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ArgMinTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    size_t dimNum = shape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum == 0 || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    if (cols == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t rowPitch = (cols + alignNum - 1) / alignNum * alignNum;
    bool computeInFloat = dtype == ge::DT_BF16;     // no bf16 vector arithmetic
    uint32_t computeSize = computeInFloat ? FLOAT_SIZE : typeSize;

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h): 1 spreads short
    // tensors over every core; more amortise each core's setup.
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 2, 4, 8, 16}, tuning::Role::CoreSplit));
    uint32_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    uint32_t usedCores = coreLimit < coreNum ? coreLimit : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Buffers of the input queue (tuning knob): two let the next tile's copy run while
    // this one is reduced; one gives tiles twice as long.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    uint64_t budget = ubSize - RESERVED_UB;
    // Whole rows: per row the queued input and its result; once, a float row (bf16) and
    // the reduction's work buffer.
    uint64_t fixedBytes = WorkBytes(rowPitch, computeSize) + (computeInFloat ? rowPitch * FLOAT_SIZE : 0);
    uint64_t rowBytes = static_cast<uint64_t>(rowPitch) * typeSize * bufferNum + INDEX_SIZE * BUFFER_NUM;
    bool wholeRows = fixedBytes + rowBytes <= budget && !(typeSize == 2 && !computeInFloat && cols > HALF_INDEX_LIMIT);
    uint32_t rowsPerTile = 0;
    uint32_t chunkLen = cols;
    if (wholeRows) {
        uint64_t fit = (budget - fixedBytes) / rowBytes;
        rowsPerTile = static_cast<uint32_t>(fit < MAX_BLOCK_COUNT ? fit : MAX_BLOCK_COUNT);
        // Most rows per tile (tuning knob; 0: as many as UB allows): smaller tiles start the
        // copy/reduce overlap sooner.
        uint32_t rowsCap = static_cast<uint32_t>(
            tuning::Knob("rows_per_tile_cap", 0, {0, 1, 4, 16, 64, 256}, tuning::Role::TileSize));
        if (rowsCap != 0 && rowsCap < rowsPerTile) {
            rowsPerTile = rowsCap;
        }
        if (rowsPerTile > formerRows) {
            rowsPerTile = formerRows;
        }
    } else {
        // Long rows: one chunk of whole vector repeats at a time.
        rowsPerTile = formerRows < CHUNK_RESULTS ? formerRows : CHUNK_RESULTS;
        uint64_t outBytes = AlignUp(static_cast<uint64_t>(rowsPerTile) * INDEX_SIZE, BLOCK_SIZE) * BUFFER_NUM;
        // Per element: the queued input, its float copy (bf16) and about 1/16 of work.
        uint64_t perElem = typeSize * bufferNum + (computeInFloat ? FLOAT_SIZE : 0) + 1;
        uint64_t len = (budget - outBytes - 2 * BLOCK_SIZE) / perElem / REPEAT_SIZE * REPEAT_SIZE;
        if (typeSize == 2 && !computeInFloat && len > HALF_INDEX_LIMIT) {
            len = HALF_INDEX_LIMIT / REPEAT_SIZE * REPEAT_SIZE;
        }
        if (len == 0) {
            return ge::GRAPH_FAILED;
        }
        chunkLen = static_cast<uint32_t>(len);
        rowPitch = chunkLen;
    }

    tiling.set_cols(cols);
    tiling.set_rowPitch(rowPitch);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_chunkLen(chunkLen);
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
// y has x's shape without the last axis; a rank-1 x gives one element.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || y == nullptr || x->GetDimNum() == 0) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(0);
    for (size_t d = 0; d + 1 < x->GetDimNum(); ++d) {
        y->AppendDim(x->GetDim(d));
    }
    if (y->GetDimNum() == 0) {
        y->AppendDim(1);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ArgMinCustom : public OpDef {
public:
    explicit ArgMinCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ArgMinCustom);
}  // namespace ops
