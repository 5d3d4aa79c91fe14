// Reference for RMS normalization over the last axis (in golden_api::real).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& gamma = call.input("gamma");
  AocGoldenTensor& y = call.output("y");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-6));
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (gamma.size != cols) return call.fail("gamma must have the length of x's last axis");
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    double* out = y.data + r * cols;
    real sumSq = 0;
    for (int64_t c = 0; c < cols; ++c) sumSq += static_cast<real>(in[c]) * static_cast<real>(in[c]);
    const real rstd = real(1) / std::sqrt(sumSq / static_cast<real>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) out[c] = static_cast<real>(in[c]) * rstd * static_cast<real>(gamma.data[c]);
  }
  return 0;
}
