// Host side of AddLayerNormCustom: the operator definition and the tiling function.
#include "add_layer_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint64_t MAX_BLOCK_COUNT = 4095;
constexpr uint64_t RESERVED_UB = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddLayerNormTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() == 0 || epsilon == nullptr || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = shape.GetDim(shape.GetDimNum() - 1);
    if (cols == 0 || context->GetInputShape(2)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols) ||
        context->GetInputShape(3)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(cols)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = shape.GetShapeSize() / cols;
    uint64_t alignNum = BLOCK_SIZE / typeSize;
    uint64_t pitch = (cols + alignNum - 1) / alignNum * alignNum;
    bool computeInFloat = typeSize != FLOAT_SIZE;

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h).
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 2, 4, 8, 16}, tuning::Role::CoreSplit));
    uint64_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    uint32_t usedCores = coreLimit < coreNum ? static_cast<uint32_t>(coreLimit) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Buffers per queue (tuning knob): two overlap copy in, compute and copy out.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    // Fixed: gamma and beta as loaded and in float (16-bit), a float row of squares,
    // ReduceSum's work and the result block. Per row: x1, x2, y and x queued, and float
    // copies of x1 and x2 for 16-bit types.
    uint64_t fixedBytes = pitch * (2 * typeSize + (computeInFloat ? 2 * FLOAT_SIZE : 0) + FLOAT_SIZE) +
                          (pitch / 64 + 1) * FLOAT_SIZE + 4 * BLOCK_SIZE;
    auto rowBytes = [&](uint32_t buffers) {
        return pitch * (4ULL * typeSize * buffers + (computeInFloat ? 2 * FLOAT_SIZE : 0));
    };
    if (bufferNum > 1 && fixedBytes + rowBytes(bufferNum) + RESERVED_UB > ubSize) {
        bufferNum = 1;
    }
    if (fixedBytes + rowBytes(bufferNum) + RESERVED_UB > ubSize) {
        return ge::GRAPH_FAILED;  // one row does not fit in UB
    }
    uint64_t rowsPerTile = (ubSize - RESERVED_UB - fixedBytes) / rowBytes(bufferNum);
    // Most rows per tile (tuning knob; 0: as many as UB allows).
    uint32_t rowsCap = static_cast<uint32_t>(
        tuning::Knob("rows_per_tile_cap", 0, {0, 1, 2, 4, 8, 16, 32}, tuning::Role::TileSize));
    if (rowsCap != 0 && rowsCap < rowsPerTile) {
        rowsPerTile = rowsCap;
    }
    rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
    rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;

    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_bufferNum(bufferNum);
    tiling.set_epsilon(*epsilon);
    tiling.set_avgFactor(1.0f / static_cast<float>(cols));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddLayerNormCustom : public OpDef {
public:
    explicit AddLayerNormCustom(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x1", "x2", "gamma", "beta"};
        for (const char* n : inputs) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        const char* outputs[] = {"y", "x"};
        for (const char* n : outputs) {
            this->Output(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddLayerNormCustom);
}  // namespace ops
