// Host side of BroadcastMulCustom: the operator definition and the tiling function.
#include "broadcast_mul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;  // DataCopyPad moves at most this many rows at once
constexpr uint32_t MAX_CHANNELS = 8192;     // up to this many, the whole scale vector stays in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BroadcastMulTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& scaleShape = context->GetInputShape(1)->GetOriginShape();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    size_t dimNum = xShape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum < 2) {
        return ge::GRAPH_FAILED;  // x must be [..., C, L]
    }
    uint32_t cols = xShape.GetDim(dimNum - 1);
    uint32_t channels = xShape.GetDim(dimNum - 2);
    if (scaleShape.GetShapeSize() != channels) {
        return ge::GRAPH_FAILED;  // scale must be [C, 1] (one value per channel of x)
    }
    // More channels than that: each tile loads the scales of its own rows (at most
    // MAX_BLOCK_COUNT of them, in up to two runs when the tile wraps past channel C - 1).
    bool scalePerTile = channels > MAX_CHANNELS;
    uint32_t rows = xShape.GetShapeSize() / cols;
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // UB: the scale vector or a tile's scales (rounded to a block), then per column of a row
    // double-buffered x and y plus, for bf16 (multiplied in float), a float row. Chunks are
    // at most a quarter of the rest so several rows share a tile.
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint64_t scaleElems = scalePerTile ? MAX_BLOCK_COUNT + alignNum : channels;
    uint64_t scaleBytes = (scaleElems + alignNum - 1) / alignNum * BLOCK_SIZE;
    bool computeInFloat = dtype == ge::DT_BF16;
    uint64_t rowBytesPerCol = BUFFER_NUM * 2 * typeSize + (computeInFloat ? sizeof(float) : 0);
    uint64_t freeBytes = ubSize - scaleBytes;
    uint64_t maxChunk = freeBytes / 4 / rowBytesPerCol / 64 * 64;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint32_t chunkCols = colsAligned <= maxChunk ? cols : static_cast<uint32_t>(maxChunk);
    uint32_t chunkAligned = (chunkCols + alignNum - 1) / alignNum * alignNum;
    uint64_t rowsPerTile = freeBytes / (static_cast<uint64_t>(chunkAligned) * rowBytesPerCol);
    rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
    rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;

    tiling.set_channels(channels);
    tiling.set_cols(cols);
    tiling.set_chunkCols(chunkCols);
    tiling.set_scalePerTile(scalePerTile ? 1 : 0);
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
class BroadcastMulCustom : public OpDef {
public:
    explicit BroadcastMulCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
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
OP_ADD(BroadcastMulCustom);
}  // namespace ops
