// Reference for inference batch normalization over [N, C, *] (in golden_api::real).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& mean = call.input("mean");
  const AocGoldenTensor& var = call.input("var");
  const AocGoldenTensor& gamma = call.input("gamma");
  const AocGoldenTensor& beta = call.input("beta");
  AocGoldenTensor& y = call.output("y");
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-5));
  if (x.rank < 2) return call.fail("x must be [N, C, ...]");
  const int64_t channels = x.dims[1];
  if (mean.size != channels || var.size != channels || gamma.size != channels || beta.size != channels)
    return call.fail("mean, var, gamma and beta must have C elements");
  int64_t inner = 1;
  for (int64_t d = 2; d < x.rank; ++d) inner *= x.dims[d];
  const int64_t planes = x.size / inner;
  for (int64_t p = 0; p < planes; ++p) {
    const int64_t c = p % channels;
    const real rstd = real(1) / std::sqrt(static_cast<real>(var.data[c]) + eps);
    for (int64_t i = 0; i < inner; ++i) {
      const real v = static_cast<real>(x.data[p * inner + i]);
      y.data[p * inner + i] =
          (v - static_cast<real>(mean.data[c])) * rstd * static_cast<real>(gamma.data[c]) + static_cast<real>(beta.data[c]);
    }
  }
  return 0;
}
