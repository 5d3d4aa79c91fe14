// Host side of copy_tile: checks that the tiles cover the matrix exactly and splits the
// rows evenly over `cores` blocks.
#include "copy_tile_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CopyTileTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const auto* attrs = context->GetAttrs();
    int64_t tileRows = *attrs->GetAttrPointer<int64_t>(0);
    int64_t tileCols = *attrs->GetAttrPointer<int64_t>(1);
    int64_t cores = *attrs->GetAttrPointer<int64_t>(2);
    if (shape.GetDimNum() != 2 || tileRows <= 0 || tileCols < 16 || cores <= 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t rows = shape.GetDim(0);
    int64_t cols = shape.GetDim(1);
    if (rows % cores != 0 || (rows / cores) % tileRows != 0 || cols % tileCols != 0 || tileRows > 4095) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rows / cores));
    tiling.set_tileRows(static_cast<uint32_t>(tileRows));
    tiling.set_tileCols(static_cast<uint32_t>(tileCols));
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

// z: 16 elements per core.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    int64_t cores = *context->GetAttrs()->GetAttrPointer<int64_t>(2);
    gert::Shape* z = context->GetOutputShape(0);
    z->SetDimNum(0);
    z->AppendDim(cores);
    z->AppendDim(16);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CopyTile : public OpDef {
public:
    explicit CopyTile(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("tile_rows").AttrType(OPTIONAL).Int(64);
        this->Attr("tile_cols").AttrType(OPTIONAL).Int(1024);
        this->Attr("cores").AttrType(OPTIONAL).Int(48);
        this->SetInferShape(optiling::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CopyTile);
}  // namespace ops
