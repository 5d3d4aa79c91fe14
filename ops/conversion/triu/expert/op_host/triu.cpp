// Host side of TriuCustom (expert): the operator definition and the tiling function.
// The kernel masks a whole tile of rows with one compare and one select, so the tile also
// holds a float column-minus-row index per element (and its mask bits); the rows are split
// across as many cores as the work pays for, each core's rows in at least
// MIN_TILES_PER_CORE tiles.
#include "triu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t FLOATS_PER_REPEAT = 64;  // the index compare runs in whole float repeats
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;  // ~0.03 us per further block started
constexpr double MTE_BYTES_PER_CYCLE = 46.0;     // one core's GM<->UB copy rate
constexpr uint32_t MIN_TILES_PER_CORE = 4;       // enough tiles for MTE2, V and MTE3 to overlap

static uint32_t Padded(uint64_t cols)
{
    return static_cast<uint32_t>((cols + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT);
}
// Per row of a tile: double-buffered input and output rows, the row's float indices and
// their mask bits.
static uint64_t RowBytes(uint64_t colsPadded, uint32_t typeSize)
{
    return colsPadded * typeSize * BUFFER_NUM * 2 + colsPadded * FLOAT_SIZE + colsPadded / 8;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TriuTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    size_t dimNum = shape.GetDimNum();
    const int64_t* diagonal = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (typeSize == 0 || coreNum == 0 || dimNum == 0 || diagonal == nullptr) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t matRows = dimNum >= 2 ? shape.GetDim(dimNum - 2) : 1;
    uint32_t rows = shape.GetShapeSize() / cols;
    // Core count from the work: W cycles of one core's copy traffic (x in, y out) over k
    // cores cost W / k + k * launch, least at k = sqrt(W / launch).
    double work = static_cast<double>(rows) * cols * 2 * typeSize / MTE_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = rows < wantCores ? rows : wantCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Rows go in column chunks: the whole row when it fits in UB, else the widest multiple
    // of 64 columns that does.
    uint32_t chunkCols = cols;
    uint32_t colsPadded = Padded(chunkCols);
    if (BLOCK_SIZE + RowBytes(colsPadded, typeSize) > ubSize) {
        uint64_t fit = (ubSize - BLOCK_SIZE) / (RowBytes(FLOATS_PER_REPEAT, typeSize) / FLOATS_PER_REPEAT) /
                       FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        while (fit > FLOATS_PER_REPEAT && BLOCK_SIZE + RowBytes(fit, typeSize) > ubSize) {
            fit -= FLOATS_PER_REPEAT;
        }
        chunkCols = static_cast<uint32_t>(fit < cols ? fit : cols);
        colsPadded = Padded(chunkCols);
    }
    uint64_t rowBytes = RowBytes(colsPadded, typeSize);
    if (BLOCK_SIZE + rowBytes > ubSize) {
        return ge::GRAPH_FAILED;  // 64 columns do not fit in UB
    }
    uint64_t rowsPerTile = (ubSize - BLOCK_SIZE) / rowBytes;
    // At least MIN_TILES_PER_CORE tiles per core, so the first copy-in and the last copy-out
    // (which nothing overlaps) are short.
    uint64_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
    if (rowsPerTile > overlapRows) {
        rowsPerTile = overlapRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    tiling.set_matRows(matRows);
    tiling.set_cols(cols);
    tiling.set_chunkCols(chunkCols);
    tiling.set_colsPadded(colsPadded);
    // Diagonals beyond the matrix act like the matrix edge; clamping keeps them in int32.
    int64_t limit = static_cast<int64_t>(cols) + matRows;
    int64_t diag = *diagonal < -limit ? -limit : (*diagonal > limit ? limit : *diagonal);
    tiling.set_diagonal(static_cast<int32_t>(diag));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class TriuCustom : public OpDef {
public:
    explicit TriuCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("diagonal").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TriuCustom);
}  // namespace ops
