// Gradient of the MSE loss with respect to predict:
//   y = 2 * (predict - label) * dout            for reduction "sum" and "none"
//   y = 2 * (predict - label) * dout / N        for reduction "mean" (N = element count of predict)
// predict, label and dout have one shape; y has it too.
#include <cstring>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& p = call.input("predict");
  const AocGoldenTensor& l = call.input("label");
  const AocGoldenTensor& g = call.input("dout");
  AocGoldenTensor& y = call.output("y");
  if (l.size != p.size || g.size != p.size || y.size != p.size)
    return call.fail("predict, label, dout and y must have the same element count");
  const bool mean = std::strcmp(call.attr_str("reduction", "mean"), "mean") == 0;
  const real n = static_cast<real>(p.size);
  for (int64_t i = 0; i < y.size; ++i) {
    const real d = static_cast<real>(p.data[i]) - static_cast<real>(l.data[i]);
    real v = real(2) * d * static_cast<real>(g.data[i]);
    if (mean) v = v / n;
    y.data[i] = v;
  }
  return 0;
}
