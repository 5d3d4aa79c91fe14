// Reference for mul_scalar: y = x * alpha (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  AocGoldenTensor& out = call.output("y");
  const real alpha = call.attr_float("alpha", 2.0);
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    out.data[i] = x * alpha;
  }
  return 0;
}
