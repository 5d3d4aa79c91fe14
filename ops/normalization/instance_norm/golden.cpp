// Reference for instance normalization over [N, C, *] (in golden_api::real): per-plane mean
// and biased variance (two passes).
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
  if (x.rank < 2) return call.fail("x must be [N, C, ...]");
  const int64_t channels = x.dims[1];
  if (gamma.size != channels || beta.size != channels) return call.fail("gamma and beta must have C elements");
  int64_t inner = 1;
  for (int64_t d = 2; d < x.rank; ++d) inner *= x.dims[d];
  const int64_t planes = x.size / inner;
  for (int64_t p = 0; p < planes; ++p) {
    const double* in = x.data + p * inner;
    double* out = y.data + p * inner;
    const int64_t c = p % channels;
    real sum = 0;
    for (int64_t i = 0; i < inner; ++i) sum += static_cast<real>(in[i]);
    const real mean = sum / static_cast<real>(inner);
    real sq = 0;
    for (int64_t i = 0; i < inner; ++i) {
      const real d = static_cast<real>(in[i]) - mean;
      sq += d * d;
    }
    const real rstd = real(1) / std::sqrt(sq / static_cast<real>(inner) + eps);
    for (int64_t i = 0; i < inner; ++i)
      out[i] = (static_cast<real>(in[i]) - mean) * rstd * static_cast<real>(gamma.data[c]) +
               static_cast<real>(beta.data[c]);
  }
  return 0;
}
