// Host side of IndexSelectCustom: the operator definition, output shape and tiling.
#include <cmath>

#include "index_select_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INDEX_SIZE = 4;
constexpr uint32_t MAX_BLOCK_COUNT = 1024;     // rows per tile (the kernel keeps a kind per row)
constexpr uint64_t MAX_UB_INDICES = 8192;      // indices kept in UB (32 KB); more are read from GM
constexpr uint64_t RESERVED_UB = 1024;
constexpr double LAUNCH_CYCLES = 55.0;         // 0.03 us block launch step at 1.85 GHz
constexpr double ROW_CYCLES = 20.0;            // scalar work per output row (index read, copy issue)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexSelectTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    int64_t indexNum = context->GetInputShape(1)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const int64_t* dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (typeSize == 0 || coreNum == 0 || dimAttr == nullptr || ubSize <= RESERVED_UB || indexNum <= 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t dim = *dimAttr;
    if (dim < 0 || dim + 1 >= rank) {
        return ge::GRAPH_FAILED;  // the last axis is not supported: rows would be single elements
    }
    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t d = 0; d < dim; ++d) {
        outer *= shape.GetDim(d);
    }
    for (int64_t d = dim + 1; d < rank; ++d) {
        inner *= shape.GetDim(d);
    }
    uint64_t rows = outer * static_cast<uint64_t>(indexNum);
    if (rows == 0 || inner == 0) {
        return ge::GRAPH_FAILED;
    }

    // Fewest output rows a core gets (tuning knob, tiling/tuning_knobs.h).
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 4, 16, 64}, tuning::Role::CoreSplit));
    uint64_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    // Core count from the work (the launch step of each further block against it): W cycles
    // over k cores cost W / k + LAUNCH_CYCLES * k, least at k = sqrt(W / LAUNCH_CYCLES); W is
    // the bytes written at ~46 B/cycle plus the scalar work of each row.
    double work = static_cast<double>(rows) * ROW_CYCLES + static_cast<double>(rows * inner * typeSize) / 46.0;
    uint64_t wanted = static_cast<uint64_t>(std::sqrt(work / LAUNCH_CYCLES));
    wanted = wanted < 1 ? 1 : wanted;
    coreLimit = coreLimit < wanted ? coreLimit : wanted;
    uint32_t usedCores = coreLimit < coreNum ? static_cast<uint32_t>(coreLimit) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Buffers per queue (tuning knob): two overlap the row copies in, the UB move and the copy out.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    bool indicesInUb = static_cast<uint64_t>(indexNum) <= MAX_UB_INDICES;
    uint64_t indexBytes = indicesInUb ? (static_cast<uint64_t>(indexNum) * INDEX_SIZE + BLOCK_SIZE - 1) / BLOCK_SIZE *
                                            BLOCK_SIZE
                                      : 0;
    uint64_t budget = ubSize - RESERVED_UB - indexBytes;
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    // Per element of a tile: the input and output queues.
    uint64_t perElem = static_cast<uint64_t>(typeSize) * 2 * bufferNum;
    uint64_t innerAligned = (inner + alignNum - 1) / alignNum * alignNum;
    uint64_t colChunk = inner;
    uint64_t rowsPerTile = 1;
    if (innerAligned * perElem <= budget) {
        rowsPerTile = budget / (innerAligned * perElem);
        // Most rows per tile (tuning knob; 0: as many as UB allows).
        uint32_t rowsCap = static_cast<uint32_t>(
            tuning::Knob("rows_per_tile_cap", 0, {0, 8, 32, 128, 512}, tuning::Role::TileSize));
        if (rowsCap != 0 && rowsCap < rowsPerTile) {
            rowsPerTile = rowsCap;
        }
        rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
        rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;
    } else {
        colChunk = budget / perElem / alignNum * alignNum;
        innerAligned = colChunk;
    }
    if (colChunk == 0 || rowsPerTile == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_axisLen(static_cast<uint32_t>(shape.GetDim(dim)));
    tiling.set_indexNum(static_cast<uint32_t>(indexNum));
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_colChunk(static_cast<uint32_t>(colChunk));
    tiling.set_rowPitch(static_cast<uint32_t>(innerAligned));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_indicesInUb(indicesInUb ? 1 : 0);
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
// y is x with axis dim's length replaced by the number of indices.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* indices = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    const int64_t* dim = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (x == nullptr || indices == nullptr || y == nullptr || dim == nullptr || *dim < 0 ||
        *dim >= static_cast<int64_t>(x->GetDimNum())) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(0);
    for (size_t d = 0; d < x->GetDimNum(); ++d) {
        y->AppendDim(static_cast<int64_t>(d) == *dim ? indices->GetShapeSize() : x->GetDim(d));
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class IndexSelectCustom : public OpDef {
public:
    explicit IndexSelectCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(0);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexSelectCustom);
}  // namespace ops
