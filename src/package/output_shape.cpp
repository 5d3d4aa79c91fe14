// Output shapes of a case. Reductions, gathers, transposes, pooling and the like have
// outputs shaped like no input; for them the shape op.toml writes (package/shape_expr.h) or
// else the operator's own InferShape (the function its OpDef registered) is the authority, the
// latter exactly as on the device's graph engine.
#include <map>
#include <string>
#include <variant>

#include "aoc/host/op_registry.h"
#include "package/case_node.h"
#include "package/op_package.h"

namespace aoc::package {

std::vector<int64_t> OpPackage::written_output_shape(const CaseSpec& c, size_t o) const {
  std::map<std::string, int64_t> int_attrs;
  for (const auto& [name, v] : case_attrs(c))
    if (const auto* i = std::get_if<int64_t>(&v)) int_attrs[name] = *i;
  return eval_shape(outputs.at(o).shape.value(), c.shapes, int_attrs);
}

std::vector<int64_t> OpPackage::output_shape(const CaseSpec& c, size_t o) const {
  const TensorSpec& out = outputs.at(o);
  if (!out.shape_like.empty()) return c.shapes.at(out.shape_like);
  if (out.shape) try {
      return written_output_shape(c, o);
    } catch (const ShapeExprError& e) {
      throw PackageError(toml_path.string() + ": case '" + c.name + "': output " + out.name + ": " + e.what());
    }
  const ops::OpDef* def = aoc::host::OpRegistry::instance().find(op_type);
  gert::OpImplInferShapeFunc infer = def != nullptr ? def->infer_shape() : nullptr;
  if (infer == nullptr) infer = aoc::host::OpImplRegistry::instance().find(op_type).infer_shape;  // IMPL_OP_INFERSHAPE
  if (infer == nullptr) return c.shapes.at(inputs.front().name);

  aoc::host::NodeDesc node = case_node(*this, c);
  gert::InferShapeContext ctx(node, outputs.size());
  ge::graphStatus st = ge::GRAPH_FAILED;
  std::string thrown;
  try {
    st = infer(&ctx);
  } catch (const std::exception& e) {
    thrown = e.what();
  }
  if (st != ge::GRAPH_SUCCESS || !thrown.empty())
    throw PackageError(toml_path.string() + ": case '" + c.name + "': InferShape of " + op_type +
                       (thrown.empty() ? " returned failure (status " + std::to_string(st) + ")" : " threw: " + thrown) +
                       "; fix the case's shapes or attributes, or the InferShape function in op_host/");
  return ctx.output_shapes().at(o).dims();
}

}  // namespace aoc::package
