// Host side of EmbeddingCustom (expert): the operator definition, output shape and tiling function.
#include "embedding_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INDEX_SIZE = 4;
constexpr uint32_t MAX_COL_BYTES = 16384;   // a 16 KB row slice still leaves room for several rows
constexpr uint32_t MAX_ROWS_PER_COPY = 4095;
constexpr uint32_t MAX_IDS_PER_LOAD = 8192;  // 32 KB of int32 ids per load
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts that
// much later, the per-block launch step of the calibrated 910B model). A looked-up
// row costs one copy in (issue ~18 cycles, the index read and check on the scalar unit,
// and its bytes at ~46 B/cycle of MTE2).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double CYCLES_PER_ROW = 40.0;
constexpr double MTE2_BYTES_PER_CYCLE = 46.0;
constexpr uint32_t MIN_TILES_PER_CORE = 4;  // the next tile's row copies overlap this tile's copy out

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EmbeddingTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& weightShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& idsShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || weightShape.GetDimNum() != 2 || idsShape.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tableRows = weightShape.GetDim(0);
    uint32_t cols = weightShape.GetDim(1);
    uint32_t rows = idsShape.GetShapeSize();  // ids of any shape are looked up in flat order

    // expert: core count from the amount of work. W cycles of single-core work over k cores
    // cost W / k + k * launch, best at k = sqrt(W / launch).
    double work = static_cast<double>(rows) * (CYCLES_PER_ROW + cols * typeSize / MTE2_BYTES_PER_CYCLE);
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = rows < wantCores ? rows : wantCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;
    uint32_t maxCols = MAX_COL_BYTES / typeSize;
    uint32_t colTile = colsAligned < maxCols ? colsAligned : maxCols;
    // expert: the core's ids are loaded MAX_IDS_PER_LOAD at a time (all of them when they fit),
    // so the scalar unit reads them without waiting for the row copies in flight.
    uint32_t idsPerLoad = formerRows < MAX_IDS_PER_LOAD ? formerRows : MAX_IDS_PER_LOAD;
    idsPerLoad = idsPerLoad == 0 ? 1 : idsPerLoad;
    uint64_t idsBytes = (static_cast<uint64_t>(idsPerLoad) * INDEX_SIZE + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
    // Per tile row: a double-buffered row slice.
    uint64_t rowBytes = static_cast<uint64_t>(colTile) * typeSize * BUFFER_NUM;
    uint64_t rowsPerTile = (ubSize - idsBytes) / rowBytes;
    // expert: at least MIN_TILES_PER_CORE tiles per core, so the double-buffered row queue
    // overlaps one tile's row fetches with the previous tile's copy out (a single tile
    // per core runs them back to back).
    uint64_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
    if (rowsPerTile > overlapRows) {
        rowsPerTile = overlapRows;
    }
    if (rowsPerTile > MAX_ROWS_PER_COPY) {
        rowsPerTile = MAX_ROWS_PER_COPY;
    }

    tiling.set_tableRows(tableRows);
    tiling.set_cols(cols);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_colTile(colTile);
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_idsPerLoad(idsPerLoad);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// y is ids.shape + [D] for weight [V, D].
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* weightShape = context->GetInputShape(0);
    const gert::Shape* idsShape = context->GetInputShape(1);
    if (weightShape->GetDimNum() != 2 || idsShape->GetDimNum() == 0) {
        return GRAPH_FAILED;
    }
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(0);
    for (size_t d = 0; d < idsShape->GetDimNum(); ++d) {
        yShape->AppendDim(idsShape->GetDim(d));
    }
    yShape->AppendDim(weightShape->GetDim(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class EmbeddingCustom : public OpDef {
public:
    explicit EmbeddingCustom(const char* name) : OpDef(name)
    {
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("ids")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
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
OP_ADD(EmbeddingCustom);
}  // namespace ops
