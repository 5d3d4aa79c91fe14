// Host side of ReduceMeanCustom (expert): the operator definition, output shape and tiling.
#include "reduce_mean_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t REPEAT_SIZE = 256;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;   // DataCopyPad blockCount limit: rows per copy
constexpr uint32_t CHUNK_ROWS = 1024;        // results gathered per output copy for long rows
constexpr uint64_t RESERVED_UB = 1024;       // result blocks and allocator slack
constexpr uint32_t MAX_REPEAT = 255;         // vector repeat stride limit in 32 B blocks
constexpr uint32_t PART_FLOATS = 64;         // one float repeat of partial sums per row
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model) and the
// single-core cost of one input byte (MTE2 at ~46 B/cycle).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double MTE2_BYTES_PER_CYCLE = 46.0;
constexpr uint32_t MIN_TILES_PER_CORE = 2;   // the next tile's copy overlaps this tile's sums
constexpr uint64_t SPLIT_MIN_BYTES = 16384;  // smallest segment of a split row
constexpr uint32_t SPLIT_UNIT_BYTES = 512;   // segments are whole 512 B units
constexpr uint32_t SPLIT_CHUNK = 8192;       // elements per streamed chunk of a segment

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceMeanTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    size_t dimNum = shape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum == 0 || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;

    // expert: core count from the amount of work. W cycles of single-core copy work over k
    // cores cost W / k + k * launch, best at k = sqrt(W / launch).
    double work = static_cast<double>(rows) * cols * typeSize / MTE2_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = rows < wantCores ? rows : wantCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Per input element: the double-buffered input, a float copy and float reduction
    // workspace (one row at a time). Per result: a float accumulator and the
    // double-buffered output.
    uint64_t budget = ubSize - RESERVED_UB;
    uint64_t elemBytes = typeSize * BUFFER_NUM;
    uint64_t scratchBytes = static_cast<uint64_t>(FLOAT_SIZE) * 2;
    uint64_t resultBytes = FLOAT_SIZE + typeSize * BUFFER_NUM;
    uint64_t wholeRowFixed = static_cast<uint64_t>(colsAligned) * scratchBytes;
    uint64_t wholeRowEach = static_cast<uint64_t>(colsAligned) * elemBytes + resultBytes;
    uint32_t rowsPerTile = 0;
    uint32_t chunkLen = cols;
    // expert: rows whose float pitch is a legal repeat stride are summed a tile at a time
    // by strided vector ops (no per-row reduction, scalar read or V->S sync). Per row: the
    // double-buffered input, its float copy (16-bit inputs) and 64 float partial sums.
    uint32_t vecRows = 0;
    uint32_t floatPitchBlocks = colsAligned * FLOAT_SIZE / BLOCK_SIZE;
    uint64_t vecRowBytes = static_cast<uint64_t>(colsAligned) * (elemBytes + (typeSize == FLOAT_SIZE ? 0 : FLOAT_SIZE)) +
                           PART_FLOATS * FLOAT_SIZE + resultBytes;
    if (floatPitchBlocks <= MAX_REPEAT && vecRowBytes <= budget) {
        vecRows = 1;
        uint64_t fit = budget / vecRowBytes;
        rowsPerTile = static_cast<uint32_t>(fit < MAX_BLOCK_COUNT ? fit : MAX_BLOCK_COUNT);
        uint32_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
        overlapRows = (overlapRows + 7) / 8 * 8;  // result copies stay 32 B aligned in UB
        rowsPerTile = overlapRows < rowsPerTile ? overlapRows : rowsPerTile;
    } else if (wholeRowFixed + wholeRowEach <= budget) {
        uint64_t fit = (budget - wholeRowFixed) / wholeRowEach;
        rowsPerTile = static_cast<uint32_t>(fit < MAX_BLOCK_COUNT ? fit : MAX_BLOCK_COUNT);
    } else {
        // Long rows: one chunk at a time; chunks are whole vector repeats.
        rowsPerTile = CHUNK_ROWS;
        uint64_t perElem = elemBytes + scratchBytes;
        chunkLen = static_cast<uint32_t>((budget - CHUNK_ROWS * resultBytes) / perElem / REPEAT_SIZE * REPEAT_SIZE);
        colsAligned = chunkLen;
    }
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }

    // expert: few long rows (decode-time vocabulary sums) would leave most cores idle with
    // one core per row. Each row is then cut into `splits` segments of whole 512 B units, one
    // core per segment: a core streams its segment through UB (double-buffered chunks added
    // into a float accumulator), writes its float partial to the workspace, and after SyncAll
    // the first core of each row adds the row's partials and writes the result.
    uint32_t splits = 1;
    uint32_t segLen = 0;
    uint64_t rowBytes = static_cast<uint64_t>(cols) * typeSize;
    if (rows * 2 <= coreNum && rowBytes >= 2 * SPLIT_MIN_BYTES) {
        uint32_t unit = SPLIT_UNIT_BYTES / typeSize;
        uint64_t bySize = rowBytes / SPLIT_MIN_BYTES;
        uint32_t want = coreNum / rows;
        splits = bySize < want ? static_cast<uint32_t>(bySize) : want;
        uint64_t seg = (static_cast<uint64_t>(cols) + splits - 1) / splits;
        segLen = static_cast<uint32_t>((seg + unit - 1) / unit * unit);
        splits = (cols + segLen - 1) / segLen;
        if (splits > 1) {
            usedCores = rows * splits;
            chunkLen = segLen < SPLIT_CHUNK ? segLen : SPLIT_CHUNK;
            colsAligned = chunkLen;
            rowsPerTile = 1;
            vecRows = 0;
            formerNum = 0;
            formerRows = 1;
            tailRows = 1;
        } else {
            splits = 1;
            segLen = 0;
        }
    }
    tiling.set_splits(splits);
    tiling.set_segLen(segLen);
    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_chunkLen(chunkLen);
    tiling.set_vecRows(vecRows);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = splits > 1 ? static_cast<size_t>(usedCores) * BLOCK_SIZE : 0;
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
class ReduceMeanCustom : public OpDef {
public:
    explicit ReduceMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceMeanCustom);
}  // namespace ops
