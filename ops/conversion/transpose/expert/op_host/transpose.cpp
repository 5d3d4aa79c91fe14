// Host side of TransposeCustom (expert): the operator definition, output shape and tiling function.
#include "transpose_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t OFFSET_SIZE = 4;       // Gather takes uint32 byte offsets
constexpr uint32_t TILE_ALIGN = 16;       // keeps every tile row 32 B aligned for 2- and 4-byte types
constexpr uint64_t UB_RESERVE = 1024;
// Launch cost of one more core in cycles (~0.15 us at 1.8 GHz, A2 measurements) and the
// single-core cost of one element (Gather at ~5 elements per cycle plus the strided copies).
constexpr double LAUNCH_CYCLES_PER_CORE = 270.0;
constexpr double CYCLES_PER_ELEM = 0.25;

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

    // The largest square tile whose double-buffered input and output plus the gather
    // offsets fit in UB.
    uint64_t bytesPerTileElem = static_cast<uint64_t>(BUFFER_NUM) * 2 * typeSize + OFFSET_SIZE;
    uint32_t tileSize = TILE_ALIGN;
    while (static_cast<uint64_t>(tileSize + TILE_ALIGN) * (tileSize + TILE_ALIGN) * bytesPerTileElem <=
           ubSize - UB_RESERVE) {
        tileSize += TILE_ALIGN;
    }
    uint32_t rowTiles = (rows + tileSize - 1) / tileSize;
    uint32_t colTiles = (cols + tileSize - 1) / tileSize;
    uint32_t totalTiles = batch * rowTiles * colTiles;
    // expert: core count from the amount of work. W cycles of single-core work over k cores
    // cost W / k + k * launch, best at k = sqrt(W / launch); launching a core per tile of a
    // small matrix costs more than the tiles themselves.
    double work = static_cast<double>(batch) * rows * cols * CYCLES_PER_ELEM;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = totalTiles < wantCores ? totalTiles : wantCores;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_tileSize(tileSize);
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
