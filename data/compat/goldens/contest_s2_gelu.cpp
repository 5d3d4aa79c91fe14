// Gelu as the Ascend operator library defines the Gelu op (the tanh approximation):
//   y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) = x / (1 + exp(-sqrt(8/pi) (x + 0.044715 x^3))).
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const real k = std::sqrt(real(2) / real(3.14159265358979323846));
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    y.data[i] = real(0.5) * v * (real(1) + std::tanh(k * (v + real(0.044715) * v * v * v)));
  }
  return 0;
}
