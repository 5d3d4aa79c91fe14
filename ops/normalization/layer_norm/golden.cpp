// Reference for layer_norm over the last axis (biased variance), in double precision.
#include <cmath>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  aoc_golden::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& gamma = call.input("gamma");
  const AocGoldenTensor& beta = call.input("beta");
  AocGoldenTensor& y = call.output("y");
  const double eps = call.attr_float("epsilon", 1e-5);
  const int64_t cols = aoc_golden::Call::last_dim(x);
  const int64_t rows = aoc_golden::Call::rows(x);
  if (gamma.size != cols || beta.size != cols) return call.fail("gamma and beta must have the last axis's length");
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    double* out = y.data + r * cols;
    double mean = 0.0;
    for (int64_t c = 0; c < cols; ++c) mean += in[c];
    mean /= static_cast<double>(cols);
    double var = 0.0;
    for (int64_t c = 0; c < cols; ++c) var += (in[c] - mean) * (in[c] - mean);
    var /= static_cast<double>(cols);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t c = 0; c < cols; ++c) out[c] = (in[c] - mean) * rstd * gamma.data[c] + beta.data[c];
  }
  return 0;
}
