// Reference for clip: y = min(max(x, min), max) (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  AocGoldenTensor& out = call.output("y");
  const real min_value = call.attr_float("min", -0.5);
  const real max_value = call.attr_float("max", 0.5);
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    out.data[i] = std::min(std::max(x, min_value), max_value);
  }
  return 0;
}
