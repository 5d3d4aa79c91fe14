// Reference for cumsum over the last axis: y[r, c] = sum of x[r, 0..c] (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  for (int64_t r = 0; r < rows; ++r) {
    real acc = 0;
    for (int64_t c = 0; c < cols; ++c) {
      acc += static_cast<real>(x.data[r * cols + c]);
      y.data[r * cols + c] = acc;
    }
  }
  return 0;
}
