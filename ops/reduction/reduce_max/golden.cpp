// Reference for the max over the last axis; a NaN in a row makes its result NaN.
#include <cmath>
#include <limits>
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (y.size != rows) return call.fail("y must hold one element per row of x");
  for (int64_t r = 0; r < rows; ++r) {
    double best = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < cols; ++c) {
      const double v = x.data[r * cols + c];
      if (std::isnan(v) || v > best) best = v;
      if (std::isnan(best)) break;
    }
    y.data[r] = best;
  }
  return 0;
}
