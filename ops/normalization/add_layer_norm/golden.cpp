// Reference for add_layer_norm (in golden_api::real): x = x1 + x2, y = LayerNorm(x) * gamma + beta.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x1 = call.input("x1");
  const AocGoldenTensor& x2 = call.input("x2");
  const AocGoldenTensor& gamma = call.input("gamma");
  const AocGoldenTensor& beta = call.input("beta");
  AocGoldenTensor& y = call.output("y");
  AocGoldenTensor& x = call.output("x");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-5));
  const int64_t cols = golden_api::Call::last_dim(x1);
  const int64_t rows = golden_api::Call::rows(x1);
  if (gamma.size != cols || beta.size != cols) return call.fail("gamma and beta must have the last axis's length");
  for (int64_t r = 0; r < rows; ++r) {
    real sum = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const real v = static_cast<real>(x1.data[r * cols + c]) + static_cast<real>(x2.data[r * cols + c]);
      x.data[r * cols + c] = v;
      sum += v;
    }
    const real mean = sum / static_cast<real>(cols);
    real sq = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const real d = static_cast<real>(x.data[r * cols + c]) - mean;
      sq += d * d;
    }
    const real rstd = real(1) / std::sqrt(sq / static_cast<real>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c)
      y.data[r * cols + c] = (static_cast<real>(x.data[r * cols + c]) - mean) * rstd * static_cast<real>(gamma.data[c]) +
                             static_cast<real>(beta.data[c]);
  }
  return 0;
}
