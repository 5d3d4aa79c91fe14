// Reference for argmin over the last axis: the first minimum, a NaN counting as the minimum.
#include <cmath>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (y.size != rows) return call.fail("y must hold one element per row of x");
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    int64_t best = 0;
    for (int64_t c = 1; c < cols; ++c) {
      if (std::isnan(in[best])) break;
      if (std::isnan(in[c]) || in[c] < in[best]) best = c;
    }
    y.data[r] = static_cast<double>(best);
  }
  return 0;
}
