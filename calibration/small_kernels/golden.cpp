// Reference of the small calibration kernels: formula 0 sigmoid(x), 1 gelu(x) (tanh form),
// 2 max(x, y), in double.
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  AocGoldenTensor& z = call.output("z");
  const int64_t formula = call.attr_int("formula", 0);
  for (int64_t i = 0; i < z.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    if (formula == 2) {
      z.data[i] = std::max(v, static_cast<real>(y.data[i]));
    } else if (formula == 1) {
      const real u = std::sqrt(real(2) / real(M_PI)) * (v + real(0.044715) * v * v * v);
      z.data[i] = v / (real(1) + std::exp(real(-2) * u));
    } else {
      z.data[i] = real(1) / (real(1) + std::exp(-v));
    }
  }
  return 0;
}
