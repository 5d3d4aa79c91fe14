// Host side of the import fixture: z = alpha * x + y (or -(alpha * x + y) when mode is "negate").
#include <cstring>

#include "axpy_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t cores = blocks < 8 ? blocks : 8;
    AxpyCustomTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore((blocks + cores - 1) / cores * blockElems);
    tiling.set_alpha(*context->GetAttrs()->GetAttrPointer<float>(0));
    tiling.set_negate(std::strcmp(context->GetAttrs()->GetStr(1), "negate") == 0 ? 1 : 0);
    context->SetBlockDim((total + tiling.get_perCore() - 1) / tiling.get_perCore());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AxpyCustom : public OpDef {
public:
    explicit AxpyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(2.5);
        this->Attr("mode").AttrType(OPTIONAL).String("plain");
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxpyCustom);
}  // namespace ops
