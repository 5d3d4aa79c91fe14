// Host side of SplitCustom: the operator definition, output shapes and tiling.
#include <cmath>

#include "split_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace {
constexpr uint32_t PARTS = 3;

// Widths of the three parts of a last axis of `cols` elements; false when `sizes` does not
// describe a split of it. All zero: three equal parts.
bool PartWidths(const gert::TypedContinuousVector<int64_t>* sizes, int64_t cols, int64_t width[PARTS])
{
    if (sizes == nullptr || sizes->GetSize() != PARTS) {
        return false;
    }
    const int64_t* s = sizes->GetData();
    if (s[0] == 0 && s[1] == 0 && s[2] == 0) {
        if (cols % PARTS != 0) {
            return false;
        }
        width[0] = width[1] = width[2] = cols / PARTS;
    } else {
        for (uint32_t p = 0; p < PARTS; ++p) {
            width[p] = s[p];
        }
    }
    return width[0] > 0 && width[1] > 0 && width[2] > 0 && width[0] + width[1] + width[2] == cols;
}
}  // namespace

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t RESERVED_UB = 1024;
// Bytes a core copies in during one block launch step (0.03 us at 1.85 GHz = 55 cycles at the
// ~46 B/cycle of MTE2): k cores cost bytes / (46 k) + 55 k cycles, least at
// k = sqrt(bytes / CORE_TRAFFIC_UNIT).
constexpr double CORE_TRAFFIC_UNIT = 2530.0;
// Tiles per core the tile length aims at, so the copy out of one tile overlaps the copy in of
// the next; no tile is made smaller than MIN_TILE_BYTES for it.
constexpr uint64_t TILES_PER_CORE = 4;
constexpr uint64_t MIN_TILE_BYTES = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SplitTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || x.GetDimNum() == 0 || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    int64_t cols = x.GetDim(x.GetDimNum() - 1);
    int64_t width[PARTS] = {0, 0, 0};
    if (cols <= 0 || !PartWidths(context->GetAttrs()->GetListInt(0), cols, width)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = x.GetShapeSize() / cols;

    // Core count from the bytes to move (launch step against copy time), at most one per row.
    uint64_t bytes = rows * static_cast<uint64_t>(cols) * typeSize;
    uint64_t wanted = static_cast<uint64_t>(std::sqrt(static_cast<double>(bytes) / CORE_TRAFFIC_UNIT));
    wanted = wanted < 1 ? 1 : wanted;
    uint64_t limit = rows < coreNum ? rows : coreNum;
    uint32_t usedCores = static_cast<uint32_t>(wanted < limit ? wanted : limit);
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);

    // Buffers of the copy queue (tuning knob): two overlap the copy in of one tile with the
    // copy out of the previous one.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    uint64_t tileBytes = (ubSize - RESERVED_UB) / bufferNum / BLOCK_SIZE * BLOCK_SIZE;
    uint64_t coreBytes = (bytes + usedCores - 1) / usedCores;
    uint64_t shareBytes = (coreBytes / TILES_PER_CORE + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
    shareBytes = shareBytes < MIN_TILE_BYTES ? MIN_TILE_BYTES : shareBytes;
    tileBytes = shareBytes < tileBytes ? shareBytes : tileBytes;
    // Largest tile in bytes (tuning knob; 0: from the UB budget and the core's share).
    uint64_t tileCap = static_cast<uint64_t>(
        tuning::Knob("tile_cap_bytes", 0, {0, 8192, 16384, 32768, 65536}, tuning::Role::TileSize));
    if (tileCap != 0 && tileCap < tileBytes) {
        tileBytes = tileCap;
    }

    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_width0(static_cast<uint32_t>(width[0]));
    tiling.set_width1(static_cast<uint32_t>(width[1]));
    tiling.set_width2(static_cast<uint32_t>(width[2]));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(tailRows + (formerNum > 0 ? 1 : 0));
    tiling.set_tailRows(tailRows);
    tiling.set_tileElems(static_cast<uint32_t>(tileBytes / typeSize));
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
// y_i is x with the last dimension replaced by the width of part i.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    if (x == nullptr || x->GetDimNum() == 0) {
        return GRAPH_FAILED;
    }
    size_t last = x->GetDimNum() - 1;
    int64_t width[PARTS] = {0, 0, 0};
    if (!PartWidths(context->GetAttrs()->GetListInt(0), x->GetDim(last), width)) {
        return GRAPH_FAILED;
    }
    for (uint32_t p = 0; p < PARTS; ++p) {
        gert::Shape* y = context->GetOutputShape(p);
        if (y == nullptr) {
            return GRAPH_FAILED;
        }
        y->SetDimNum(0);
        for (size_t d = 0; d < last; ++d) {
            y->AppendDim(x->GetDim(d));
        }
        y->AppendDim(width[p]);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SplitCustom : public OpDef {
public:
    explicit SplitCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        for (const char* name : {"y0", "y1", "y2"}) {
            this->Output(name)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Attr("sizes").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SplitCustom);
}  // namespace ops
