// Host side of BroadcastAddCustom (expert): the operator definition and the tiling function.
#include "broadcast_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model) and the
// single-core cost of one element of x (its GM read at ~46 B/cycle of MTE2).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double MTE2_BYTES_PER_CYCLE = 46.0;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MIN_TILES_PER_CORE = 4;
constexpr uint64_t UB_REGION = 65536;  // UB bank id changes every 64 KB  // enough tiles for MTE2/V/MTE3 to overlap
constexpr uint32_t MAX_BLOCK_COUNT = 4095;  // DataCopyPad moves at most this many rows at once

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BroadcastAddTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& biasShape = context->GetInputShape(1)->GetOriginShape();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    size_t dimNum = xShape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = xShape.GetDim(dimNum - 1);
    if (cols == 0 || biasShape.GetShapeSize() != cols) {
        return ge::GRAPH_FAILED;  // bias must hold exactly one value per column of x
    }
    uint32_t rows = xShape.GetShapeSize() / cols;
    // expert: core count from the amount of work. W cycles of single-core copy work over k
    // cores cost W / k + k * launch, best at k = sqrt(W / launch); a µs-scale add pays
    // more for launching 48 cores than it saves.
    double work = static_cast<double>(rows) * cols * typeSize / MTE2_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = rows < wantCores ? rows : wantCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // UB per column: double-buffered x and y rows, the bias chunk, and for bf16 (added in
    // float) float copies of a row and of the bias. Chunks are at most a quarter of UB per row
    // so several rows share a tile; the chunk width is a whole number of 32 B blocks.
    bool computeInFloat = dtype == ge::DT_BF16;
    uint64_t rowBytesPerCol = BUFFER_NUM * 2 * typeSize + (computeInFloat ? sizeof(float) : 0);
    uint64_t biasBytesPerCol = typeSize + (computeInFloat ? sizeof(float) : 0);
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint64_t maxChunk = ubSize / 4 / (rowBytesPerCol + biasBytesPerCol) / 64 * 64;
    // expert: UB banks are 64 KB regions, and a copy waits while a vector instruction works
    // on its banks. Each tile parity's x and y rows get a region of their own and the bias
    // (with the float scratch) the third, so one tile's copies run beside the other's math.
    // A chunk is then at most what the third region holds, and at most half a region per row.
    bool regionLayout = ubSize >= 3 * UB_REGION;
    if (regionLayout) {
        uint64_t scratchPerCol = biasBytesPerCol + (computeInFloat ? sizeof(float) : 0);
        uint64_t regionChunk = UB_REGION / scratchPerCol;
        uint64_t rowChunk = UB_REGION / (2 * typeSize);
        regionChunk = (regionChunk < rowChunk ? regionChunk : rowChunk) / 64 * 64;
        maxChunk = regionChunk;
    }
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint32_t chunkCols = colsAligned <= maxChunk ? cols : static_cast<uint32_t>(maxChunk);
    uint32_t chunkAligned = (chunkCols + alignNum - 1) / alignNum * alignNum;
    uint64_t freeBytes = ubSize - static_cast<uint64_t>(chunkAligned) * biasBytesPerCol;
    uint64_t rowsPerTile = freeBytes / (static_cast<uint64_t>(chunkAligned) * rowBytesPerCol);
    if (regionLayout) {
        rowsPerTile = UB_REGION / (static_cast<uint64_t>(chunkAligned) * 2 * typeSize);
    }
    rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
    // expert: several tiles per core, so MTE2, V and MTE3 overlap across tiles.
    uint64_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
    rowsPerTile = rowsPerTile < overlapRows ? rowsPerTile : overlapRows;
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;

    uint32_t regionPad = 0;
    if (regionLayout) {
        regionPad = static_cast<uint32_t>(UB_REGION - rowsPerTile * chunkAligned * 2 * typeSize);
    }
    tiling.set_regionPad(regionPad);
    tiling.set_cols(cols);
    tiling.set_chunkCols(chunkCols);
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
class BroadcastAddCustom : public OpDef {
public:
    explicit BroadcastAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
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
OP_ADD(BroadcastAddCustom);
}  // namespace ops
