// Reference for sub: z = x - y (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  const AocGoldenTensor& y_t = call.input("y");
  AocGoldenTensor& out = call.output("z");
  if (y_t.size != x_t.size) return call.fail("y must have as many elements as x");
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    const real y = static_cast<real>(y_t.data[i]);
    out.data[i] = x - y;
  }
  return 0;
}
