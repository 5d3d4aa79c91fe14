// Host side of MaskedSoftmaxCustom: the operator definition and the tiling function.
#include "masked_softmax_tiling.h"
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
    MaskedSoftmaxTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& maskShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() == 0 || maskShape.GetDimNum() == 0 || scale == nullptr ||
        ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = shape.GetDim(shape.GetDimNum() - 1);
    if (cols == 0 || maskShape.GetDim(maskShape.GetDimNum() - 1) != static_cast<int64_t>(cols)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = shape.GetShapeSize() / cols;
    uint64_t maskRows = maskShape.GetShapeSize() / cols;
    if (maskRows == 0 || rows % maskRows != 0) {
        return ge::GRAPH_FAILED;
    }
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
    // Fixed: ReduceMax/ReduceSum work and the result block. Per row: x and mask rows and the
    // output row queued, float copies of x and the mask for 16-bit types.
    // Rows of at most 64 elements add a row of statistics and their one-block-per-row spread.
    uint64_t fixedBytes = (pitch / 64 + 1) * 2 * FLOAT_SIZE + 4 * BLOCK_SIZE + (cols <= 64 ? 248 * 9 * FLOAT_SIZE : 0) +
                          (cols > 64 && pitch <= 2040 ? 8 * (64 + 9) * FLOAT_SIZE : 0);  // group rounded up to 8 rows
    // Rows of 65 to 2040 elements add, per row, a folded repeat, a statistic and its block.
    bool midRows = cols > 64 && pitch <= 2040;
    auto rowBytes = [&](uint32_t buffers) {
        return pitch * (3ULL * typeSize * buffers + (computeInFloat ? 2 * FLOAT_SIZE : 0)) +
               (midRows ? 64 * FLOAT_SIZE + BLOCK_SIZE + FLOAT_SIZE : 0);
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
        tuning::Knob("rows_per_tile_cap", 0, {0, 1, 4, 16, 64, 256}, tuning::Role::TileSize));
    if (rowsCap != 0 && rowsCap < rowsPerTile) {
        rowsPerTile = rowsCap;
    }
    rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
    rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;

    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_maskRows(static_cast<uint32_t>(maskRows));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_bufferNum(bufferNum);
    tiling.set_scale(*scale);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MaskedSoftmaxCustom : public OpDef {
public:
    explicit MaskedSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaskedSoftmaxCustom);
}  // namespace ops
