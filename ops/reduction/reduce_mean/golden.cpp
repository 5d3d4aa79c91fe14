// Reference for the mean over the last axis (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (y.size != rows) return call.fail("y must hold one element per row of x");
  for (int64_t r = 0; r < rows; ++r) {
    real sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += static_cast<real>(x.data[r * cols + c]);
    y.data[r] = sum / static_cast<real>(cols);
  }
  return 0;
}
