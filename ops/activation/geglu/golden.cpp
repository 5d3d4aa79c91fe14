// Reference for geglu: y = gelu_tanh(a) * b with x = [a, b] along the last axis (in golden_api::real).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (cols % 2 != 0) return call.fail("the last dimension must be even");
  const int64_t h = cols / 2;
  if (y.size != rows * h) return call.fail("y must be [..., C / 2]");
  const real k = std::sqrt(real(2) / real(M_PI));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < h; ++j) {
      const real a = static_cast<real>(x.data[r * cols + j]);
      const real b = static_cast<real>(x.data[r * cols + h + j]);
      const real g = real(0.5) * a * (real(1) + std::tanh(k * (a + real(0.044715) * a * a * a)));
      y.data[r * h + j] = g * b;
    }
  return 0;
}
