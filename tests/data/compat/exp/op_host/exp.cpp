// Host side of the fixture: OpDef without SetTiling; the tiling function and its TilingParse
// are registered with IMPL_OP_OPTILING, and the core count comes from the compile info.
#include "exp_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct ExpCompileInfo {
    uint32_t coreNum = 0;
};

static ge::graphStatus TilingPrepare(gert::TilingParseContext* context)
{
    auto* info = context->GetCompiledInfo<ExpCompileInfo>();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    info->coreNum = platform.GetCoreNumAiv();
    return info->coreNum > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto* info = context->GetCompileInfo<ExpCompileInfo>();
    if (info == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t cores = blocks < 4 ? blocks : (info->coreNum < 4 ? info->coreNum : 4);
    ExpTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore((blocks + cores - 1) / cores * blockElems);
    context->SetBlockDim((total + tiling.get_perCore() - 1) / tiling.get_perCore());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(Exp).Tiling(TilingFunc).TilingParse<ExpCompileInfo>(TilingPrepare);
}  // namespace optiling

namespace ops {
class Exp : public OpDef {
public:
    explicit Exp(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Exp);
}  // namespace ops
