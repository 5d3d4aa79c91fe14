// Reference for gelu: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), the tanh form (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    if (std::isnan(v)) {
      y.data[i] = v;
      continue;
    }
    // 0.5 x (1 + tanh(u)) written as x / (1 + exp(-2u)) to avoid cancellation for x < 0.
    const real u = std::sqrt(real(2) / real(M_PI)) * (v + real(0.044715) * v * v * v);
    y.data[i] = v / (real(1) + std::exp(real(-2) * u));
  }
  return 0;
}
