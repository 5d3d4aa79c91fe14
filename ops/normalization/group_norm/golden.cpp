// Reference for group_norm over x [N, C, *] with num_groups groups of C/G channels
// (in golden_api::real): biased variance around the group mean, per-channel gamma, beta.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& gamma = call.input("gamma");
  const AocGoldenTensor& beta = call.input("beta");
  AocGoldenTensor& y = call.output("y");
  const int64_t groups = call.attr_int("num_groups", 1);
  const real eps = static_cast<real>(call.attr_float("epsilon", 1e-5));
  if (x.rank < 2) return call.fail("x must be [N, C, *]");
  const int64_t batch = x.dims[0];
  const int64_t channels = x.dims[1];
  if (groups <= 0 || channels % groups != 0) return call.fail("num_groups must divide C");
  if (gamma.size != channels || beta.size != channels) return call.fail("gamma and beta must have C elements");
  const int64_t plane = x.size / (batch * channels);
  const int64_t perGroup = channels / groups * plane;
  for (int64_t g = 0; g < batch * groups; ++g) {
    const double* in = x.data + g * perGroup;
    double* out = y.data + g * perGroup;
    real sum = 0;
    for (int64_t i = 0; i < perGroup; ++i) sum += static_cast<real>(in[i]);
    const real mean = sum / static_cast<real>(perGroup);
    real sq = 0;
    for (int64_t i = 0; i < perGroup; ++i) {
      const real d = static_cast<real>(in[i]) - mean;
      sq += d * d;
    }
    const real rstd = real(1) / std::sqrt(sq / static_cast<real>(perGroup) + eps);
    const int64_t firstChannel = (g % groups) * (channels / groups);
    for (int64_t i = 0; i < perGroup; ++i) {
      const int64_t c = firstChannel + i / plane;
      out[i] = (static_cast<real>(in[i]) - mean) * rstd * static_cast<real>(gamma.data[c]) +
               static_cast<real>(beta.data[c]);
    }
  }
  return 0;
}
