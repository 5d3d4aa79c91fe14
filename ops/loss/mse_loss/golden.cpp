// Reference for mse_loss: (predict - label)^2 elementwise, summed or averaged (in golden_api::real).
#include <string>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& p = call.input("predict");
  const AocGoldenTensor& l = call.input("label");
  AocGoldenTensor& y = call.output("y");
  const AocGoldenAttr* attr = call.attr("reduction");
  const std::string reduction = attr != nullptr && attr->s != nullptr ? attr->s : "mean";
  if (p.size != l.size) return call.fail("predict and label must have the same element count");
  if (reduction == "none") {
    if (y.size != p.size) return call.fail("reduction none: y must have predict's shape");
    for (int64_t i = 0; i < p.size; ++i) {
      const real d = static_cast<real>(p.data[i]) - static_cast<real>(l.data[i]);
      y.data[i] = d * d;
    }
    return 0;
  }
  if (reduction != "mean" && reduction != "sum") return call.fail("reduction must be none, mean or sum");
  if (y.size != 1) return call.fail("reduction mean/sum: y must be a scalar");
  real sum = 0;
  for (int64_t i = 0; i < p.size; ++i) {
    const real d = static_cast<real>(p.data[i]) - static_cast<real>(l.data[i]);
    sum += d * d;
  }
  y.data[0] = reduction == "mean" ? sum / static_cast<real>(p.size) : sum;
  return 0;
}
