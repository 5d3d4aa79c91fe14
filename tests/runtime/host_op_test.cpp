// Host side of an msopgen-style operator: tiling header, TilingFunc, InferShape /
// InferDataType and the OpDef, written as real op_host files are, then driven through
// the registry by op name.
#include <gtest/gtest.h>

#include <cstring>

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

// --- op_host/scale_add_custom_tiling.h
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleAddTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF_ARR(int64_t, 4, axes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleAddCustom, ScaleAddTilingData)
}  // namespace optiling

// --- op_host/scale_add_custom.cpp
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ScaleAddTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ub = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
  uint32_t elem = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
  const float* alpha = context->GetAttrs()->GetFloat(0);
  const char* mode = context->GetAttrs()->GetAttrPointer<char>(1);
  auto* axes = context->GetAttrs()->GetListInt(2);
  if (alpha == nullptr || mode == nullptr || axes == nullptr) return ge::GRAPH_FAILED;
  uint32_t cores = platform.GetCoreNumAiv();
  tiling.set_totalLength(total);
  tiling.set_tileLength(static_cast<uint32_t>(ub / 4 / elem));
  tiling.set_alpha(*alpha);
  int64_t ax[4] = {};
  for (size_t i = 0; i < axes->GetSize() && i < 4; ++i) ax[i] = axes->GetData()[i];
  tiling.set_axes(ax);
  context->SetBlockDim(cores);
  context->SetTilingKey(std::strcmp(mode, "fast") == 0 ? 2 : 1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* ws = context->GetWorkspaceSizes(1);
  ws[0] = platform.GetLibApiWorkSpaceSize() + 1024;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  const gert::Shape* x = context->GetInputShape(0);
  gert::Shape* y = context->GetOutputShape(0);
  *y = *x;
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return ge::GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaleAddCustom : public OpDef {
 public:
  explicit ScaleAddCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND})
        .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.5f);
    this->Attr("mode").AttrType(OPTIONAL).String("slow");
    this->Attr("axes").AttrType(REQUIRED).ListInt({0, 1});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ScaleAddCustom);
}  // namespace ops

namespace {

aoc::host::NodeDesc make_node(const gert::RuntimeAttrs& attrs) {
  aoc::host::NodeDesc node("ScaleAddCustom");
  node.Input(gert::Shape{8, 1024}, ge::DT_FLOAT16).Output(gert::Shape{}, ge::DT_UNDEFINED).Attrs(attrs);
  return node;
}

}  // namespace

TEST(OpDef, RegisteredByNameWithDescriptors) {
  const ops::OpDef* def = aoc::host::OpRegistry::instance().find("ScaleAddCustom");
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(aoc::host::OpRegistry::instance().find("NoSuchOp"), nullptr);
  ASSERT_EQ(def->inputs().size(), 2u);
  EXPECT_EQ(def->inputs()[1].name(), "bias");
  EXPECT_EQ(def->inputs()[1].param_type(), ops::OPTIONAL);
  EXPECT_EQ(def->inputs()[0].dtypes()[1], ge::DT_FLOAT);
  ASSERT_EQ(def->outputs().size(), 1u);
  ASSERT_EQ(def->attrs().size(), 3u);
  EXPECT_EQ(def->attrs()[2].attr_type(), ops::REQUIRED);
  EXPECT_NE(def->aicore().tiling(), nullptr);
  EXPECT_EQ(def->aicore().configs().count("ascend910b"), 1u);
}

TEST(OpDef, InferShapeAndDataTypeRun) {
  const ops::OpDef* def = aoc::host::OpRegistry::instance().find("ScaleAddCustom");
  ASSERT_NE(def, nullptr);
  auto node = make_node(def->attrs_with());
  gert::InferShapeContext shape_ctx(node);
  ASSERT_EQ(def->infer_shape()(&shape_ctx), ge::GRAPH_SUCCESS);
  EXPECT_EQ(shape_ctx.output_shapes()[0], (gert::Shape{8, 1024}));
  gert::InferDataTypeContext dtype_ctx(node);
  ASSERT_EQ(def->infer_dtype()(&dtype_ctx), ge::GRAPH_SUCCESS);
  EXPECT_EQ(dtype_ctx.output_dtypes()[0], ge::DT_FLOAT16);
}

TEST(TilingContext, TilingFuncReadsShapesAttrsAndWritesResults) {
  const ops::OpDef* def = aoc::host::OpRegistry::instance().find("ScaleAddCustom");
  ASSERT_NE(def, nullptr);
  auto attrs = def->attrs_with({{"mode", std::string("fast")}, {"axes", std::vector<int64_t>{3, 2, 1}}});
  aoc::host::PlatformConfig small;
  small.aiv_cores = 20;
  small.ub_bytes = 64 * 1024;
  gert::TilingContext ctx(make_node(attrs), small);
  ASSERT_EQ(def->aicore().tiling()(&ctx), ge::GRAPH_SUCCESS);
  EXPECT_EQ(ctx.GetBlockDim(), 20u);
  EXPECT_EQ(ctx.GetTilingKey(), 2u);
  ASSERT_EQ(ctx.GetWorkspaceNum(), 1u);
  EXPECT_EQ(ctx.workspace_sizes()[0], 16u * 1024 * 1024 + 1024);

  optiling::ScaleAddTilingData back;
  ASSERT_EQ(ctx.GetRawTilingData()->GetDataSize(), sizeof(back));
  std::memcpy(&back, ctx.GetRawTilingData()->GetData(), sizeof(back));
  EXPECT_EQ(back.totalLength, 8u * 1024);
  EXPECT_EQ(back.tileLength, 64u * 1024 / 4 / 2);
  EXPECT_FLOAT_EQ(back.alpha, 1.5f);
  EXPECT_EQ(back.axes[0], 3);
  EXPECT_EQ(back.axes[2], 1);
  EXPECT_EQ(back.axes[3], 0);
}

TEST(TilingContext, ShapesDescsTensorsAndOptionalInputs) {
  int32_t values[3] = {4, 5, 6};
  aoc::host::NodeDesc node("Demo");
  node.Input(gert::StorageShape(gert::Shape{3, 5}, gert::Shape{3, 16}), ge::DT_BF16, ge::FORMAT_ND)
      .Input(gert::StorageShape(gert::Shape{3}), ge::DT_INT32, ge::FORMAT_ND, values, /*ir_index=*/2)
      .Output(gert::Shape{3, 5}, ge::DT_FLOAT)
      .Attr(int64_t{7})
      .Attr(true);
  gert::TilingContext ctx(std::move(node));
  EXPECT_EQ(ctx.GetInputsNum(), 2u);
  EXPECT_EQ(ctx.GetComputeNodeInfo()->GetInputsNum(), 2u);
  EXPECT_EQ(ctx.GetInputShape(0)->GetStorageShape().GetDim(1), 16);
  EXPECT_EQ(ctx.GetInputShape(0)->GetOriginShape().GetShapeSize(), 15);
  EXPECT_EQ(ctx.GetInputShape(5), nullptr);
  EXPECT_EQ(ctx.GetInputDesc(0)->GetDataType(), ge::DT_BF16);
  EXPECT_EQ(ctx.GetOutputDesc(0)->GetDataType(), ge::DT_FLOAT);
  EXPECT_EQ(ctx.GetOptionalInputShape(1), nullptr);
  ASSERT_NE(ctx.GetOptionalInputTensor(2), nullptr);
  EXPECT_EQ(ctx.GetOptionalInputTensor(2)->GetData<int32_t>()[2], 6);
  EXPECT_EQ(*ctx.GetAttrs()->GetInt(0), 7);
  EXPECT_EQ(*ctx.GetAttrs()->GetAttrPointer<int32_t>(0), 7);
  EXPECT_EQ(ctx.GetAttrs()->GetFloat(0), nullptr);
  EXPECT_TRUE(*ctx.GetAttrs()->GetBool(1));
  EXPECT_STREQ(ctx.GetNodeType(), "Demo");
}

TEST(TilingContext, StandardCppTilingStructLivesInRawBuffer) {
  struct Plain {
    uint32_t a;
    uint64_t b;
  };
  gert::TilingContext ctx(aoc::host::NodeDesc("Demo"));
  Plain* p = ctx.GetTilingData<Plain>();
  ASSERT_NE(p, nullptr);
  p->a = 3;
  p->b = 9;
  EXPECT_EQ(ctx.GetRawTilingData()->GetDataSize(), sizeof(Plain));
  uint64_t b;
  std::memcpy(&b, static_cast<uint8_t*>(ctx.GetRawTilingData()->GetData()) + offsetof(Plain, b), 8);
  EXPECT_EQ(b, 9u);
}
