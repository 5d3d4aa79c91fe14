// Reference for add_rms_norm: x = x1 + x2, y = x / sqrt(mean(x^2) + eps) * gamma over the
// last axis (in golden_api::real); y is normalised from the unrounded sum.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x1 = call.input("x1");
  const AocGoldenTensor& x2 = call.input("x2");
  const AocGoldenTensor& gamma = call.input("gamma");
  AocGoldenTensor& y = call.output("y");
  AocGoldenTensor& x = call.output("x");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-6));
  const int64_t cols = golden_api::Call::last_dim(x1);
  const int64_t rows = golden_api::Call::rows(x1);
  if (x2.size != x1.size) return call.fail("x2 must have x1's shape");
  if (gamma.size != cols) return call.fail("gamma must have the length of x1's last axis");
  for (int64_t r = 0; r < rows; ++r) {
    real sumSq = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const real v = static_cast<real>(x1.data[i]) + static_cast<real>(x2.data[i]);
      x.data[i] = v;
      sumSq += v * v;
    }
    const real rstd = real(1) / std::sqrt(sumSq / static_cast<real>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const real v = static_cast<real>(x1.data[i]) + static_cast<real>(x2.data[i]);
      y.data[i] = v * rstd * static_cast<real>(gamma.data[c]);
    }
  }
  return 0;
}
