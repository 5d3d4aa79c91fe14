// Host side of TransposeCustom (expert): the operator definition, output shape and tiling function.
#include "transpose_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t OFFSET_SIZE = 4;       // Gather takes uint32 byte offsets
constexpr uint32_t BLOCK_BYTES = 32;      // UB rows of a strided copy start on 32 B blocks
constexpr uint64_t UB_RESERVE = 1024;
constexpr uint64_t HEAD_ROWS = 8;        // rows of the offset table the kernel computes directly
// Busiest-core cost of a tiling in bytes moved at a core's copy rate: a tile adds the latency of
// its two copies (S4: ~210 cycles GM->UB at 46 B/cycle plus ~150 UB->GM at 65 B/cycle, about
// 19 KB of copying) and each core used starts later than the previous one (~0.03 us, 2.5 KB).
constexpr uint64_t TILE_OVERHEAD_BYTES = 19 * 1024;
constexpr uint64_t CORE_START_BYTES = 2560;

static uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// UB bytes of one tile: double-buffered x and y tiles plus the gather offsets.
static uint64_t TileUbBytes(uint64_t tileRows, uint64_t inPitch, uint64_t tileCols, uint64_t outPitch,
                            uint32_t typeSize)
{
    uint64_t inBytes = AlignUp(tileRows * inPitch * typeSize, BLOCK_BYTES);
    uint64_t outBytes = AlignUp(tileCols * outPitch * typeSize, BLOCK_BYTES);
    // the offset table and a float column index for its first HEAD_ROWS rows
    uint64_t headRows = tileCols < HEAD_ROWS ? tileCols : HEAD_ROWS;
    return BUFFER_NUM * (inBytes + outBytes) + AlignUp(tileCols * outPitch * OFFSET_SIZE, BLOCK_BYTES) +
           AlignUp(headRows * outPitch * OFFSET_SIZE, BLOCK_BYTES);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TransposeTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    size_t dimNum = shape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum < 2 || ubSize <= UB_RESERVE) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(dimNum - 2);
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t batch = shape.GetShapeSize() / (static_cast<uint64_t>(rows) * cols);
    uint64_t budget = ubSize - UB_RESERVE;

    // expert: tiles fitted to the matrix. A side that fits in one tile is taken whole, so its
    // copy is one contiguous burst (tile rows packed at pitch C in, or R out) and the other
    // side is chosen; otherwise tiles are square. Both ends of every copy then move long
    // bursts, and no tile gathers padding beyond 32 B of alignment. Among the shapes that fit
    // UB, the one with the least work on the busiest core wins.
    uint32_t align = BLOCK_BYTES / typeSize;
    auto fits = [&](uint32_t tr, uint32_t tc) {
        uint32_t inPitch = tc >= cols ? cols : tc;
        uint32_t outPitch = tr >= rows ? rows : tr;
        return TileUbBytes(tr >= rows ? rows : tr, inPitch, tc >= cols ? cols : tc, outPitch, typeSize) <= budget;
    };
    uint32_t square = align;
    while (TileUbBytes(square + align, square + align, square + align, square + align, typeSize) <= budget) {
        square += align;
    }
    uint32_t tileRows = square;
    uint32_t tileCols = square;
    uint64_t bestCost = ~0ULL;
    auto consider = [&](uint32_t tr, uint32_t tc) {
        tr = tr > rows ? rows : tr;
        tc = tc > cols ? cols : tc;
        if (!fits(tr, tc)) {
            return;
        }
        uint64_t tiles = static_cast<uint64_t>(batch) * ((rows + tr - 1) / tr) * ((cols + tc - 1) / tc);
        uint64_t used = tiles < coreNum ? tiles : coreNum;
        uint64_t perCore = (tiles + used - 1) / used;
        uint64_t cost = perCore * (static_cast<uint64_t>(tr) * tc * typeSize + TILE_OVERHEAD_BYTES) +
                        used * CORE_START_BYTES;
        if (cost < bestCost) {
            bestCost = cost;
            tileRows = tr;
            tileCols = tc;
        }
    };
    for (uint32_t edge = align; edge <= cols + align || edge <= rows + align; edge += align) {
        if (rows <= square) {
            consider(rows, edge);
        } else if (cols <= square) {
            consider(edge, cols);
        } else if (edge <= square) {
            consider(edge, edge);
        }
    }
    uint32_t rowTiles = (rows + tileRows - 1) / tileRows;
    uint32_t colTiles = (cols + tileCols - 1) / tileCols;
    uint32_t inPitch = colTiles == 1 ? cols : tileCols;
    uint32_t outPitch = rowTiles == 1 ? rows : tileRows;
    uint32_t totalTiles = batch * rowTiles * colTiles;
    uint32_t usedCores = totalTiles < coreNum ? totalTiles : coreNum;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_tileRows(tileRows);
    tiling.set_tileCols(tileCols);
    tiling.set_inPitch(inPitch);
    tiling.set_outPitch(outPitch);
    tiling.set_rowTiles(rowTiles);
    tiling.set_colTiles(colTiles);
    tiling.set_formerNum(totalTiles % usedCores);
    tiling.set_tailTiles(totalTiles / usedCores);
    tiling.set_formerTiles(totalTiles / usedCores + 1);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is x with the last two dimensions swapped.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    size_t dimNum = xShape->GetDimNum();
    if (dimNum < 2) {
        return GRAPH_FAILED;
    }
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(0);
    for (size_t d = 0; d + 2 < dimNum; ++d) {
        yShape->AppendDim(xShape->GetDim(d));
    }
    yShape->AppendDim(xShape->GetDim(dimNum - 1));
    yShape->AppendDim(xShape->GetDim(dimNum - 2));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TransposeCustom : public OpDef {
public:
    explicit TransposeCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TransposeCustom);
}  // namespace ops
