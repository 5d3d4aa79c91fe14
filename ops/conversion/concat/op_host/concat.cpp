// Host side of ConcatCustom: the operator definition, output shape and tiling.
#include "concat_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t RESERVED_UB = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConcatTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& a = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& b = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || a.GetDimNum() == 0 || a.GetDimNum() != b.GetDimNum() ||
        ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    size_t last = a.GetDimNum() - 1;
    for (size_t d = 0; d < last; ++d) {
        if (a.GetDim(d) != b.GetDim(d)) {
            return ge::GRAPH_FAILED;
        }
    }
    uint32_t colsA = a.GetDim(last);
    uint32_t colsB = b.GetDim(last);
    if (colsA == 0 || colsB == 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = a.GetShapeSize() / colsA;

    // Fewest rows a core gets (tuning knob, tiling/tuning_knobs.h): 1 spreads short tensors
    // over every core; more amortise each core's setup.
    uint32_t minRowsPerCore = static_cast<uint32_t>(
        tuning::Knob("min_rows_per_core", 1, {1, 4, 16, 64}, tuning::Role::CoreSplit));
    uint64_t coreLimit = (rows + minRowsPerCore - 1) / minRowsPerCore;
    uint32_t usedCores = coreLimit < coreNum ? static_cast<uint32_t>(coreLimit) : coreNum;
    uint32_t tailRows = static_cast<uint32_t>(rows / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(rows % usedCores);

    // Buffers of the copy queue (tuning knob): two overlap the copy in of one tile with the
    // copy out of the previous one.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    uint64_t tileBytes = (ubSize - RESERVED_UB) / bufferNum / BLOCK_SIZE * BLOCK_SIZE;
    // Largest tile in bytes (tuning knob; 0: the UB share of one buffer).
    uint64_t tileCap = static_cast<uint64_t>(
        tuning::Knob("tile_cap_bytes", 0, {0, 8192, 16384, 32768, 65536}, tuning::Role::TileSize));
    if (tileCap != 0 && tileCap < tileBytes) {
        tileBytes = tileCap;
    }

    tiling.set_colsA(colsA);
    tiling.set_colsB(colsB);
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
// y is a with the last dimension grown by b's.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    if (a == nullptr || b == nullptr || y == nullptr || a->GetDimNum() == 0 || a->GetDimNum() != b->GetDimNum()) {
        return GRAPH_FAILED;
    }
    size_t last = a->GetDimNum() - 1;
    y->SetDimNum(0);
    for (size_t d = 0; d < last; ++d) {
        y->AppendDim(a->GetDim(d));
    }
    y->AppendDim(a->GetDim(last) + b->GetDim(last));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConcatCustom : public OpDef {
public:
    explicit ConcatCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
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
OP_ADD(ConcatCustom);
}  // namespace ops
