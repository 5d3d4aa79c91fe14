// Host side of DequantizePerChannelCustom: the operator definition and the tiling function.
#include "dequantize_per_channel_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t HALF_SIZE = 2;
constexpr uint64_t PITCH_ALIGN = 32;          // elements: one 32 B block of int8
constexpr uint64_t MAX_BLOCK_COUNT = 4095;
constexpr uint64_t RESERVED_UB = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DequantizePerChannelTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t outSize = ge::GetSizeByDataType(context->GetOutputDesc(0)->GetDataType());
    if (outSize == 0 || coreNum == 0 || shape.GetDimNum() == 0 || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = shape.GetDim(shape.GetDimNum() - 1);
    if (cols == 0 || context->GetInputShape(1)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols) ||
        context->GetInputShape(2)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = shape.GetShapeSize() / cols;
    uint64_t pitch = (cols + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;

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
    // Fixed: scale and offset rows in float. Per tile element: the int8 input and output
    // queues, the half stage of the widening and a float row.
    uint64_t fixedBytes = 2 * pitch * FLOAT_SIZE;
    auto perElem = [&](uint32_t buffers) {
        return static_cast<uint64_t>(1 + outSize) * buffers + HALF_SIZE + FLOAT_SIZE;
    };
    if (bufferNum > 1 && fixedBytes + pitch * perElem(bufferNum) + RESERVED_UB > ubSize) {
        bufferNum = 1;
    }
    if (fixedBytes + pitch * perElem(bufferNum) + RESERVED_UB > ubSize) {
        return ge::GRAPH_FAILED;  // a row and the channel parameters do not fit in UB
    }
    uint64_t rowsPerTile = (ubSize - RESERVED_UB - fixedBytes) / (pitch * perElem(bufferNum));
    // Most rows per tile (tuning knob; 0: as many as UB allows).
    uint32_t rowsCap = static_cast<uint32_t>(
        tuning::Knob("rows_per_tile_cap", 0, {0, 1, 4, 16, 64}, tuning::Role::TileSize));
    if (rowsCap != 0 && rowsCap < rowsPerTile) {
        rowsPerTile = rowsCap;
    }
    rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
    rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;

    tiling.set_cols(static_cast<uint32_t>(cols));
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

namespace ops {
class DequantizePerChannelCustom : public OpDef {
public:
    explicit DequantizePerChannelCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT8, ge::DT_INT8, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("offset")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DequantizePerChannelCustom);
}  // namespace ops
