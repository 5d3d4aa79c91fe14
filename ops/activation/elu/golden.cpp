// Reference for elu: y = max(x, 0) + alpha * (exp(min(x, 0)) - 1) (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  AocGoldenTensor& out = call.output("y");
  const real alpha = static_cast<real>(call.attr_float("alpha", 1.0));
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    out.data[i] = x > 0 ? x : alpha * (std::exp(x) - real(1));
  }
  return 0;
}
