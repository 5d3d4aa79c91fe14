// Host side of CumsumCustom: the operator definition and the tiling function.
#include "cumsum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t OFFSET_SIZE = 4;        // Gather's uint32 byte offsets
constexpr uint32_t MAX_LANES = 64;         // one 256 B float repeat of rows
constexpr uint64_t PITCH_ALIGN = 16;
constexpr uint64_t RESERVED_UB = 2048;
constexpr uint64_t MIN_SEG = 256;           // fewest columns a core scans when rows are split

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumsumTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() == 0 || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = shape.GetDim(shape.GetDimNum() - 1);
    if (cols == 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = shape.GetShapeSize() / cols;
    uint32_t usedCores = rows < coreNum ? static_cast<uint32_t>(rows) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Few rows (one lane group on at most half the cores): the rows' columns are split into
    // segments, one per core, and every core scans all rows.
    bool split = rows <= MAX_LANES && usedCores * 2 <= coreNum && cols >= 2 * MIN_SEG;
    // Rows scanned side by side: a core's rows rounded up to 8 (one 32 B block of float
    // lanes), at most one 256 B repeat.
    uint32_t lanes = ((split ? static_cast<uint32_t>(rows) : formerRows) + 7) / 8 * 8;
    lanes = lanes < MAX_LANES ? lanes : MAX_LANES;
    // Buffers per queue (tuning knob, tiling/tuning_knobs.h).
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    // Per tile element: the input and output queues, the transposed float tile, both gather
    // offset tables, and float copies before and after the scan for 16-bit types.
    uint64_t perElem = static_cast<uint64_t>(typeSize) * 2 * bufferNum + FLOAT_SIZE + 2 * OFFSET_SIZE +
                       (typeSize == FLOAT_SIZE ? 0 : 2 * FLOAT_SIZE);
    uint64_t budget = ubSize - RESERVED_UB - 3 * lanes * FLOAT_SIZE;
    uint64_t chunkFit = budget / (perElem * lanes) / PITCH_ALIGN * PITCH_ALIGN;
    // Longest chunk (tuning knob; 0: as long as UB allows): shorter chunks build smaller
    // offset tables, longer ones carry between chunks less often.
    uint32_t chunkCap = static_cast<uint32_t>(
        tuning::Knob("chunk_cap", 0, {0, 64, 128, 256, 512}, tuning::Role::TileSize));
    if (chunkCap != 0 && chunkCap < chunkFit) {
        chunkFit = chunkCap;
    }
    if (chunkFit == 0) {
        return ge::GRAPH_FAILED;
    }
    // Split rows: each core scans its segment twice, first for its totals (to the workspace),
    // then, after SyncAll, from the sum of the earlier segments' totals.
    uint64_t segs = 1;
    uint64_t segLen = cols;
    if (split) {
        segs = cols / MIN_SEG < coreNum ? cols / MIN_SEG : coreNum;
        segLen = ((cols + segs - 1) / segs + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
        segs = (cols + segLen - 1) / segLen;
    }
    uint64_t chunk = segLen < chunkFit ? segLen : chunkFit;
    uint64_t pitch = (chunk + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;

    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_lanes(lanes);
    tiling.set_chunk(static_cast<uint32_t>(chunk));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_bufferNum(bufferNum);
    tiling.set_segs(static_cast<uint32_t>(segs));
    tiling.set_segLen(static_cast<uint32_t>(segLen));
    if (segs > 1) {
        // Every core takes all rows (one lane group) and one column segment.
        tiling.set_formerNum(0);
        tiling.set_formerRows(static_cast<uint32_t>(rows));
        tiling.set_tailRows(static_cast<uint32_t>(rows));
        usedCores = static_cast<uint32_t>(segs);
    }
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = segs > 1 ? static_cast<size_t>(segs * lanes * FLOAT_SIZE) : 0;  // segment totals
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CumsumCustom : public OpDef {
public:
    explicit CumsumCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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
OP_ADD(CumsumCustom);
}  // namespace ops
