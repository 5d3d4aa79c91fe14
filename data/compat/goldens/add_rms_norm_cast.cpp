// AddRmsNormCast reference. x = x1 + x2 (the residual sum, also an output); per row of the trailing
// dims gamma covers (N = gamma's element count):
//   rstd = 1 / sqrt(sum(x^2) / N + epsilon),  y = x * rstd * gamma, given twice: y1 in float32
// and y2 in the input dtype.
// rstd (float32) has x1's leading dims followed by ones.
#include <cmath>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x1 = call.input("x1");
  const AocGoldenTensor& x2 = call.input("x2");
  const AocGoldenTensor& gamma = call.input("gamma");
  AocGoldenTensor& y = call.output("y1");
  AocGoldenTensor& y2 = call.output("y2");
  AocGoldenTensor& rstd = call.output("rstd");
  AocGoldenTensor& xo = call.output("x");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-6));
  const int64_t n = gamma.size;
  if (n <= 0 || x1.size % n != 0 || x2.size != x1.size) return call.fail("gamma must cover x1's trailing dims");
  const int64_t rows = x1.size / n;
  if (rstd.size != rows) return call.fail("rstd must hold one value per row");
  std::vector<real> s(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = r * n;
    real ss = 0;
    for (int64_t j = 0; j < n; ++j) {
      s[j] = static_cast<real>(x1.data[base + j]) + static_cast<real>(x2.data[base + j]);
      ss += s[j] * s[j];
    }
    const real inv = real(1) / std::sqrt(ss / static_cast<real>(n) + eps);
    rstd.data[r] = inv;
    for (int64_t j = 0; j < n; ++j) {
      xo.data[base + j] = s[j];
      y.data[base + j] = s[j] * inv * static_cast<real>(gamma.data[j]);
      y2.data[base + j] = y.data[base + j];
    }
  }
  return 0;
}
