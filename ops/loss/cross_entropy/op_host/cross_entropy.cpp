// Host side of CrossEntropyCustom: the operator definition, output shape and tiling.
#include <cstring>

#include "cross_entropy_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;   // DataCopyPad blockCount limit: rows per copy
constexpr uint64_t RESERVED_UB = 2048;       // reduction workspace floor, result blocks, allocator slack
constexpr uint32_t REDUCE_NONE = 0;
constexpr uint32_t REDUCE_MEAN = 1;
constexpr uint32_t REDUCE_SUM = 2;

static bool ParseReduction(const char* text, uint32_t& mode)
{
    if (text == nullptr || std::strcmp(text, "mean") == 0) {
        mode = REDUCE_MEAN;
    } else if (std::strcmp(text, "sum") == 0) {
        mode = REDUCE_SUM;
    } else if (std::strcmp(text, "none") == 0) {
        mode = REDUCE_NONE;
    } else {
        return false;
    }
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CrossEntropyTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& targetShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t targetSize = ge::GetSizeByDataType(context->GetInputDesc(1)->GetDataType());
    uint32_t reduction = REDUCE_MEAN;
    const int64_t* ignoreIndex = context->GetAttrs()->GetAttrPointer<int64_t>(1);
    if (!ParseReduction(context->GetAttrs()->GetStr(0), reduction) || ignoreIndex == nullptr) {
        return ge::GRAPH_FAILED;
    }
    if (typeSize == 0 || targetSize == 0 || coreNum == 0 || shape.GetDimNum() != 2 ||
        targetShape.GetShapeSize() != shape.GetDim(0)) {
        return ge::GRAPH_FAILED;  // logits [N, C] and target [N]
    }
    uint32_t rows = shape.GetDim(0);
    uint32_t classes = shape.GetDim(1);
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t classesAligned = (classes + alignNum - 1) / alignNum * alignNum;

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Fixed: float rows for the cast input, the exponentials and the reduction workspace,
    // every core's partial-sum block (core 0 gathers them). Per row: double-buffered logits
    // and targets, the float loss and the double-buffered output loss.
    uint32_t floatRows = typeSize == FLOAT_SIZE ? 2 : 3;
    uint64_t fixedBytes = static_cast<uint64_t>(classesAligned) * FLOAT_SIZE * floatRows + RESERVED_UB +
                          static_cast<uint64_t>(coreNum) * BLOCK_SIZE;
    uint64_t rowBytes = static_cast<uint64_t>(classesAligned) * typeSize * BUFFER_NUM +
                        targetSize * BUFFER_NUM + FLOAT_SIZE + typeSize * BUFFER_NUM;
    if (fixedBytes + rowBytes > ubSize) {
        return ge::GRAPH_FAILED;  // one row of classes does not fit in UB
    }
    uint64_t fit = (ubSize - fixedBytes) / rowBytes;
    uint32_t rowsPerTile = static_cast<uint32_t>(fit < MAX_BLOCK_COUNT ? fit : MAX_BLOCK_COUNT);
    if (rowsPerTile > formerRows) {
        rowsPerTile = formerRows;
    }

    tiling.set_classes(classes);
    tiling.set_classesAligned(classesAligned);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_usedCores(usedCores);
    tiling.set_reduction(reduction);
    tiling.set_ignoreIndex(*ignoreIndex);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // One 32 B block per core: its loss sum and its count of counted rows.
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = reduction == REDUCE_NONE ? 0 : static_cast<size_t>(usedCores) * BLOCK_SIZE;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// "none": one loss per row, [N]; "mean" and "sum": a scalar (no dimensions).
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    uint32_t mode = 0;
    if (x == nullptr || y == nullptr || x->GetDimNum() != 2 ||
        !optiling::ParseReduction(context->GetAttrs()->GetStr(0), mode)) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(0);
    if (mode == optiling::REDUCE_NONE) {
        y->AppendDim(x->GetDim(0));
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CrossEntropyCustom : public OpDef {
public:
    explicit CrossEntropyCustom(const char* name) : OpDef(name)
    {
        this->Input("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32, ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");
        this->Attr("ignore_index").AttrType(OPTIONAL).Int(-100);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CrossEntropyCustom);
}  // namespace ops
