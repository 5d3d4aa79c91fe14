// Host side of ReduceSumCustom: the operator definition, output shape and tiling.
#include "reduce_sum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t REPEAT_SIZE = 256;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;   // DataCopyPad blockCount limit: rows per copy
constexpr uint32_t CHUNK_ROWS = 1024;        // results gathered per output copy for long rows
constexpr uint64_t RESERVED_UB = 1024;       // result blocks and allocator slack

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceSumTilingData tiling;
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

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h): 1 spreads short
    // tensors over every core; more rows per core use fewer cores but amortise each
    // core's fixed setup (its first loads, priming the queues).
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 2, 4, 8, 16}, tuning::Role::CoreSplit));
    uint32_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    if (coreLimit < coreNum) {
        coreNum = coreLimit;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
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
    // Most rows per tile (tuning knob; 0: as many as UB allows): fewer rows per copy start
    // the overlap of copy-in, compute and copy-out sooner.
    uint32_t rowsCap = static_cast<uint32_t>(
        tuning::Knob("rows_per_tile_cap", 0, {0, 1, 2, 4, 8, 16, 32, 64}, tuning::Role::TileSize));
    uint32_t rowsPerTile = 0;
    uint32_t chunkLen = cols;
    if (wholeRowFixed + wholeRowEach <= budget) {
        uint64_t fit = (budget - wholeRowFixed) / wholeRowEach;
        rowsPerTile = static_cast<uint32_t>(fit < MAX_BLOCK_COUNT ? fit : MAX_BLOCK_COUNT);
        if (rowsCap != 0 && rowsCap < rowsPerTile) {
            rowsPerTile = rowsCap;  // whole rows only: the long-row branch keeps its own chunking
        }
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

    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_chunkLen(chunkLen);
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
class ReduceSumCustom : public OpDef {
public:
    explicit ReduceSumCustom(const char* name) : OpDef(name)
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
OP_ADD(ReduceSumCustom);
}  // namespace ops
