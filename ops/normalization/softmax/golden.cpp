// Reference for softmax over the last axis, in double precision.
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  aoc_golden::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = aoc_golden::Call::last_dim(x);
  const int64_t rows = aoc_golden::Call::rows(x);
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    double* out = y.data + r * cols;
    const double m = *std::max_element(in, in + cols);
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum += (out[c] = std::exp(in[c] - m));
    for (int64_t c = 0; c < cols; ++c) out[c] /= sum;
  }
  return 0;
}
