// Host side of GegluCustom: the operator definition, output shape and tiling.
#include "geglu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint64_t PITCH_ALIGN = 16;          // elements: 32 B for 16-bit types, 64 B for float
constexpr uint64_t MAX_BLOCK_COUNT = 4095;
constexpr uint64_t RESERVED_UB = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GegluTilingData tiling;
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
    if (cols == 0 || cols % 2 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t half = cols / 2;
    uint64_t rows = shape.GetShapeSize() / cols;

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h).
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 4, 16, 64}, tuning::Role::CoreSplit));
    uint64_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    uint32_t usedCores = coreLimit < coreNum ? static_cast<uint32_t>(coreLimit) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Buffers per queue (tuning knob): two overlap copy in, compute and copy out.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    // Per element of a half-row tile: both halves and the output queued, float copies of
    // both halves (16-bit types) and a float work row.
    uint64_t perElem = static_cast<uint64_t>(typeSize) * 3 * bufferNum +
                       (typeSize == FLOAT_SIZE ? FLOAT_SIZE : 3 * FLOAT_SIZE);
    uint64_t budget = ubSize - RESERVED_UB;
    uint64_t pitch = (half + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    uint64_t chunk = half;
    uint64_t rowsPerTile = 1;
    if (pitch * perElem <= budget) {
        rowsPerTile = budget / (pitch * perElem);
        // Most rows per tile (tuning knob; 0: as many as UB allows).
        uint32_t rowsCap = static_cast<uint32_t>(
            tuning::Knob("rows_per_tile_cap", 0, {0, 1, 4, 16, 64}, tuning::Role::TileSize));
        if (rowsCap != 0 && rowsCap < rowsPerTile) {
            rowsPerTile = rowsCap;
        }
        rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
        rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;
    } else {
        chunk = budget / perElem / 64 * 64;  // whole 256 B float repeats
        pitch = chunk;
    }
    if (chunk == 0 || rowsPerTile == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_half(static_cast<uint32_t>(half));
    tiling.set_chunk(static_cast<uint32_t>(chunk));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
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
// y is x with the last dimension halved.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || y == nullptr || x->GetDimNum() == 0 || x->GetDim(x->GetDimNum() - 1) % 2 != 0) {
        return GRAPH_FAILED;
    }
    size_t last = x->GetDimNum() - 1;
    y->SetDimNum(0);
    for (size_t d = 0; d < last; ++d) {
        y->AppendDim(x->GetDim(d));
    }
    y->AppendDim(x->GetDim(last) / 2);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GegluCustom : public OpDef {
public:
    explicit GegluCustom(const char* name) : OpDef(name)
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
OP_ADD(GegluCustom);
}  // namespace ops
