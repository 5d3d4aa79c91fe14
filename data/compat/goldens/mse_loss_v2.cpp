// MSELossV2: squared error of input against target.
//   reduction "none": output[i] = (input[i] - target[i])^2, output shaped like input
//   reduction "sum":  output = sum_i (input[i] - target[i])^2, a scalar
//   reduction "mean": the sum divided by the element count, a scalar
#include <cstring>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("input");
  const AocGoldenTensor& t = call.input("target");
  AocGoldenTensor& out = call.output("output");
  if (t.size != a.size) return call.fail("input and target must have the same element count");
  const char* mode = call.attr_str("reduction", "mean");
  if (std::strcmp(mode, "none") == 0) {
    if (out.size != a.size) return call.fail("reduction none: output must be shaped like input");
    for (int64_t i = 0; i < a.size; ++i) {
      const real d = static_cast<real>(a.data[i]) - static_cast<real>(t.data[i]);
      out.data[i] = d * d;
    }
    return 0;
  }
  if (out.size != 1) return call.fail("reduction mean/sum: output must be a scalar");
  real acc = 0;
  for (int64_t i = 0; i < a.size; ++i) {
    const real d = static_cast<real>(a.data[i]) - static_cast<real>(t.data[i]);
    acc += d * d;
  }
  if (std::strcmp(mode, "mean") == 0) acc = acc / static_cast<real>(a.size);
  else if (std::strcmp(mode, "sum") != 0) return call.fail("reduction must be none, sum or mean");
  out.data[0] = acc;
  return 0;
}
