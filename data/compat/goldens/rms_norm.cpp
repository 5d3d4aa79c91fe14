// RmsNorm reference: over the trailing dims that gamma covers (gamma's element count N),
//   rstd = 1 / sqrt(mean(x^2) + epsilon),  y = x * rstd * gamma.
// rstd has x's leading dims followed by ones (one value per row), always float32.
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& g = call.input("gamma");
  AocGoldenTensor& y = call.output("y");
  AocGoldenTensor& rstd = call.output("rstd");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-6));
  const int64_t n = g.size;
  if (n <= 0 || x.size % n != 0) return call.fail("gamma's size does not divide x's");
  const int64_t rows = x.size / n;
  if (rstd.size != rows) return call.fail("rstd must hold one value per row");
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x.data + r * n;
    real ss = 0;
    for (int64_t j = 0; j < n; ++j) ss += static_cast<real>(xr[j]) * static_cast<real>(xr[j]);
    const real inv = real(1) / std::sqrt(ss / static_cast<real>(n) + eps);
    rstd.data[r] = inv;
    for (int64_t j = 0; j < n; ++j) y.data[r * n + j] = static_cast<real>(xr[j]) * inv * static_cast<real>(g.data[j]);
  }
  return 0;
}
