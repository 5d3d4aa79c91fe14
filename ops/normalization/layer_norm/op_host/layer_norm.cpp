// Host side of LayerNormCustom: the operator definition and the tiling function.
#include "layer_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LayerNormTilingData tiling;
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
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Fixed scratch: gamma and beta as loaded, and as float (half only), a float row for
    // the centred values (half only), a float row of squares, a float reduction workspace
    // and one block for reduction results.
    uint64_t floatRows = (typeSize == FLOAT_SIZE) ? 2 : 5;
    uint64_t fixedBytes = static_cast<uint64_t>(colsAligned) * (2 * typeSize + floatRows * FLOAT_SIZE) + BLOCK_SIZE;
    // Per row: double-buffered input and output.
    uint64_t rowBytes = static_cast<uint64_t>(colsAligned) * typeSize * BUFFER_NUM * 2;
    if (fixedBytes + rowBytes > ubSize) {
        return ge::GRAPH_FAILED;  // one row does not fit in UB
    }
    uint32_t rowsPerTile = static_cast<uint32_t>((ubSize - fixedBytes) / rowBytes);
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
    tiling.set_epsilon(epsilon != nullptr ? *epsilon : 1e-5f);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class LayerNormCustom : public OpDef {
public:
    explicit LayerNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LayerNormCustom);
}  // namespace ops
