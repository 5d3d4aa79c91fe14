// Host side of SoftmaxCustom: the operator definition and the tiling function.
#include "softmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SoftmaxTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    size_t dimNum = shape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h): 1 spreads short
    // tensors over every core; more rows per core use fewer cores but amortise each
    // core's fixed setup (its first loads, priming the queues).
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 2, 4, 8, 16}, tuning::Role::CoreSplit));
    uint32_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    if (coreLimit < coreNum) {
        coreNum = coreLimit;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Fixed scratch: a float row for half inputs (computed in float), a float row of
    // reduction workspace and one block for the reduction result.
    uint64_t fixedBytes = static_cast<uint64_t>(colsAligned) * FLOAT_SIZE * (typeSize == FLOAT_SIZE ? 1 : 2) + BLOCK_SIZE;
    // Per row: double-buffered input and output.
    uint64_t rowBytes = static_cast<uint64_t>(colsAligned) * typeSize * BUFFER_NUM * 2;
    if (fixedBytes + rowBytes > ubSize) {
        return ge::GRAPH_FAILED;  // one row does not fit in UB
    }
    uint32_t rowsPerTile = static_cast<uint32_t>((ubSize - fixedBytes) / rowBytes);
    // Most rows per tile (tuning knob; 0: as many as UB allows): fewer rows per copy start
    // the overlap of copy-in, compute and copy-out sooner.
    uint32_t rowsCap = static_cast<uint32_t>(
        tuning::Knob("rows_per_tile_cap", 0, {0, 1, 2, 4, 8, 16, 32, 64}, tuning::Role::TileSize));
    if (rowsCap != 0 && rowsCap < rowsPerTile) {
        rowsPerTile = rowsCap;
    }
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(rowsPerTile);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SoftmaxCustom);
}  // namespace ops
