// Host side of MaskedFillCustom: the operator definition and the tiling function.
#include <cmath>

#include "masked_fill_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 256;         // elements: Compares on half works in whole 256 B repeats
constexpr uint32_t ROW_ALIGN = 32;     // elements: a row pitch of whole 32 B blocks for bool, half and x
constexpr uint32_t MAX_BLOCK_COUNT = 4095;
constexpr uint64_t RESERVED_UB = 1024;
// Bytes a core copies in during one block launch step (0.03 us at 1.85 GHz = 55 cycles at the
// ~46 B/cycle of MTE2): k cores cost bytes / (46 k) + 55 k cycles, least at
// k = sqrt(bytes / CORE_TRAFFIC_UNIT).
constexpr double CORE_TRAFFIC_UNIT = 2530.0;
constexpr uint64_t TILES_PER_CORE = 4;   // tiles a block aims at, so its copies overlap
constexpr uint32_t MIN_TILE_ELEMS = 2048;

// The mask covers x's trailing axes: its dimensions, leading ones of size 1 left out, are x's last.
static bool MaskCoversTrailingAxes(const gert::Shape& x, const gert::Shape& mask)
{
    size_t lead = 0;
    while (lead + 1 < mask.GetDimNum() && mask.GetDim(lead) == 1) {
        ++lead;
    }
    size_t n = mask.GetDimNum() - lead;
    if (n > x.GetDimNum()) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (mask.GetDim(lead + i) != x.GetDim(x.GetDimNum() - n + i)) {
            return false;
        }
    }
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaskedFillTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& mask = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* value = context->GetAttrs()->GetAttrPointer<float>(0);
    if (typeSize == 0 || coreNum == 0 || value == nullptr || x.GetDimNum() == 0 || mask.GetDimNum() == 0 ||
        !MaskCoversTrailingAxes(x, mask) || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t total = x.GetShapeSize();
    uint64_t inner = mask.GetShapeSize();
    if (inner == 0 || total == 0 || total % inner != 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = total / inner;

    // UB per tile element: double-buffered x and y, the mask widened to half, its bit and
    // its bool byte (counted per element: the mask row is at most a tile row).
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * 2 * typeSize + 2 + 1 + 1;
    uint32_t tileElems = static_cast<uint32_t>((ubSize - RESERVED_UB) / bytesPerElem / UNIT * UNIT);
    if (tileElems == 0) {
        return ge::GRAPH_FAILED;
    }

    // Core count from the bytes to copy in (launch step against copy time).
    uint64_t bytesIn = total * typeSize + inner;
    uint64_t wanted = static_cast<uint64_t>(std::sqrt(static_cast<double>(bytesIn) / CORE_TRAFFIC_UNIT));
    wanted = wanted < 1 ? 1 : (wanted > coreNum ? coreNum : wanted);

    uint64_t pitch0 = (inner + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    uint64_t units = (inner + UNIT - 1) / UNIT;
    uint32_t colParts = 1;
    uint64_t rowParts = 1;
    uint32_t tileCols = 0;
    uint32_t rowsPerTile = 1;
    uint32_t pitch = 0;
    if (pitch0 <= tileElems) {
        // Whole mask rows in a tile: rows split across blocks, several rows per tile.
        rowParts = wanted < outer ? wanted : outer;
        uint64_t blockRows = (outer + rowParts - 1) / rowParts;
        uint64_t rows = tileElems / pitch0;
        uint64_t share = (blockRows + TILES_PER_CORE - 1) / TILES_PER_CORE;
        rows = rows < share ? rows : share;
        rows = rows < MAX_BLOCK_COUNT ? rows : MAX_BLOCK_COUNT;
        rowsPerTile = static_cast<uint32_t>(rows < 1 ? 1 : rows);
        tileCols = static_cast<uint32_t>(inner);
        pitch = static_cast<uint32_t>(pitch0);
    } else {
        // Long mask rows: column ranges across blocks first (each reads its part of the mask
        // once), then rows; one row per tile.
        colParts = static_cast<uint32_t>(wanted < units ? wanted : units);
        uint64_t rest = wanted / colParts;
        rowParts = rest < outer ? rest : outer;
        rowParts = rowParts < 1 ? 1 : rowParts;
        uint64_t blockCols = (units + colParts - 1) / colParts * UNIT;
        uint64_t blockRows = (outer + rowParts - 1) / rowParts;
        uint64_t target = (blockCols * blockRows + TILES_PER_CORE - 1) / TILES_PER_CORE;
        target = (target + UNIT - 1) / UNIT * UNIT;
        target = target < MIN_TILE_ELEMS ? MIN_TILE_ELEMS : target;
        tileCols = static_cast<uint32_t>(target < tileElems ? target : tileElems);
        pitch = tileCols;
    }

    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_outer(static_cast<uint32_t>(outer));
    tiling.set_colParts(colParts);
    tiling.set_colFormerNum(static_cast<uint32_t>(units % colParts));
    tiling.set_colUnits(static_cast<uint32_t>(units / colParts));
    tiling.set_rowFormerNum(static_cast<uint32_t>(outer % rowParts));
    tiling.set_rowCount(static_cast<uint32_t>(outer / rowParts));
    tiling.set_tileCols(tileCols);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_pitch(pitch);
    tiling.set_value(*value);
    context->SetBlockDim(static_cast<uint32_t>(colParts * rowParts));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MaskedFillCustom : public OpDef {
public:
    explicit MaskedFillCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("value").AttrType(OPTIONAL).Float(0.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaskedFillCustom);
}  // namespace ops
