// Reference for pow: y = x ^ exponent (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  AocGoldenTensor& out = call.output("y");
  const real exponent = call.attr_float("exponent", 2.0);
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    out.data[i] = std::pow(x, exponent);
  }
  return 0;
}
