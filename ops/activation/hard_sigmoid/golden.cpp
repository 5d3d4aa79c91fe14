// Reference for hard_sigmoid: y = clamp(x / 6 + 1/2, 0, 1) (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  AocGoldenTensor& out = call.output("y");
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    out.data[i] = std::isnan(x) ? x : (x / 6 + real(0.5) < 0 ? real(0) : (x / 6 + real(0.5) > 1 ? real(1) : x / 6 + real(0.5)));
  }
  return 0;
}
