#include "package/case_node.h"

#include <type_traits>

namespace aoc::package {

ge::DataType ge_data_type(ElemType t) { return static_cast<ge::DataType>(info(t).ge_value); }

ge::Format ge_format(const std::string& f) {
  if (f == "NCHW") return ge::FORMAT_NCHW;
  if (f == "NHWC") return ge::FORMAT_NHWC;
  if (f == "FRACTAL_NZ") return ge::FORMAT_FRACTAL_NZ;
  return ge::FORMAT_ND;
}

aoc::host::NodeDesc case_node(const OpPackage& p, const CaseSpec& c) {
  aoc::host::NodeDesc node(p.op_type);
  for (const auto& in : p.inputs)
    node.Input(gert::StorageShape(gert::Shape(c.shapes.at(in.name))), ge_data_type(in.dtypes[c.variant]),
               ge_format(in.format));
  for (const auto& [name, v] : p.case_attrs(c)) {
    std::visit([&](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      // The runtime keeps list_float attributes as float, like single floats.
      if constexpr (std::is_same_v<T, std::vector<double>>) node.Attr(std::vector<float>(x.begin(), x.end()));
      else node.Attr(x);
    }, v);
  }
  return node;
}

}  // namespace aoc::package
