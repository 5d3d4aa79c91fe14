// Reference for leaky_relu: y = x for x > 0, negative_slope * x otherwise (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const real negativeSlope = static_cast<real>(call.attr_float("negative_slope", 0.01));
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    y.data[i] = v > 0 ? v : v * negativeSlope;
  }
  return 0;
}
