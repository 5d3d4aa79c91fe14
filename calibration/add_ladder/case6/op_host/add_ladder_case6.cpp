// Host side of Add ladder case 6: 48 cores, 16256-element tiles in 32 KB buffers.
#include "add_ladder_case6_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t CORE_NUM = 48;
constexpr uint32_t ALIGN_NUM = 16;  // halves per 32 B block

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddLadderCase6TilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    // Whole 32 B blocks per core (the kernels copy whole blocks); 8192 x 8192 over 48 cores
    // is not even, so the first cores take one block more.
    if (totalLength == 0 || totalLength % ALIGN_NUM != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t totalBlocks = totalLength / ALIGN_NUM;
    tiling.set_formerNum(totalBlocks % CORE_NUM);
    tiling.set_formerLength((totalBlocks / CORE_NUM + 1) * ALIGN_NUM);
    tiling.set_tailLength(totalBlocks / CORE_NUM * ALIGN_NUM);
    context->SetBlockDim(CORE_NUM);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddLadderCase6 : public OpDef {
public:
    explicit AddLadderCase6(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddLadderCase6);
}  // namespace ops
