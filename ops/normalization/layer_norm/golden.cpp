// Reference for layer_norm over the last axis, biased variance (in golden_api::real:
// double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& gamma = call.input("gamma");
  const AocGoldenTensor& beta = call.input("beta");
  AocGoldenTensor& y = call.output("y");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-5));
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (gamma.size != cols || beta.size != cols) return call.fail("gamma and beta must have the last axis's length");
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    double* out = y.data + r * cols;
    real mean = 0;
    for (int64_t c = 0; c < cols; ++c) mean += static_cast<real>(in[c]);
    mean /= static_cast<real>(cols);
    real var = 0;
    for (int64_t c = 0; c < cols; ++c) var += (static_cast<real>(in[c]) - mean) * (static_cast<real>(in[c]) - mean);
    var /= static_cast<real>(cols);
    const real rstd = real(1) / std::sqrt(var + eps);
    for (int64_t c = 0; c < cols; ++c)
      out[c] = (static_cast<real>(in[c]) - mean) * rstd * static_cast<real>(gamma.data[c]) + static_cast<real>(beta.data[c]);
  }
  return 0;
}
