// Reference for masked_softmax: y = softmax(x * scale + mask) over the last axis, mask
// [Sq, Sk] shared by every leading index (in golden_api::real).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& mask = call.input("mask");
  AocGoldenTensor& y = call.output("y");
  const real scale = static_cast<real>(call.attr_float("scale", 1.0));
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (mask.size % cols != 0 || golden_api::Call::last_dim(mask) != cols) return call.fail("mask must be [Sq, Sk]");
  const int64_t maskRows = mask.size / cols;
  if (rows % maskRows != 0) return call.fail("mask rows must divide x's rows");
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    const double* m = mask.data + (r % maskRows) * cols;
    double* out = y.data + r * cols;
    real mx = -INFINITY;
    for (int64_t c = 0; c < cols; ++c) {
      out[c] = static_cast<real>(in[c]) * scale + static_cast<real>(m[c]);
      mx = std::max<real>(mx, out[c]);
    }
    real sum = 0;
    for (int64_t c = 0; c < cols; ++c) {
      out[c] = std::exp(static_cast<real>(out[c]) - mx);
      sum += out[c];
    }
    for (int64_t c = 0; c < cols; ++c) out[c] = static_cast<real>(out[c]) / sum;
  }
  return 0;
}
