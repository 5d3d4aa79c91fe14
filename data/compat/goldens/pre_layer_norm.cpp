// PreLayerNorm reference: LayerNorm of a residual sum over the last axis (N = gamma's size),
//   s = x + y,  mean = sum(s) / N,  var = sum((s - mean)^2) / N,
//   res_out = (s - mean) / sqrt(var + epsilon) * gamma + beta.
#include <cmath>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  const AocGoldenTensor& gamma = call.input("gamma");
  const AocGoldenTensor& beta = call.input("beta");
  AocGoldenTensor& out = call.output("res_out");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-5));
  const int64_t n = gamma.size;
  if (n <= 0 || x.size % n != 0 || y.size != x.size || beta.size != n)
    return call.fail("gamma/beta must have x's last dimension and y x's shape");
  const int64_t rows = x.size / n;
  std::vector<real> s(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = r * n;
    real sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      s[j] = static_cast<real>(x.data[base + j]) + static_cast<real>(y.data[base + j]);
      sum += s[j];
    }
    const real mu = sum / static_cast<real>(n);
    real var = 0;
    for (int64_t j = 0; j < n; ++j) var += (s[j] - mu) * (s[j] - mu);
    const real inv = real(1) / std::sqrt(var / static_cast<real>(n) + eps);
    for (int64_t j = 0; j < n; ++j)
      out.data[base + j] = (s[j] - mu) * inv * static_cast<real>(gamma.data[j]) + static_cast<real>(beta.data[j]);
  }
  return 0;
}
