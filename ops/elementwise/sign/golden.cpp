// Reference for sign: y = sign(x) (1, -1, or x for +-0 and NaN) (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  AocGoldenTensor& out = call.output("y");
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    out.data[i] = x > 0 ? real(1) : (x < 0 ? real(-1) : x);
  }
  return 0;
}
