// Reference for the strided slice of the last axis, Python semantics (begin/end clamped).
#include <algorithm>
#include <cstdint>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  int64_t b = call.attr_int("begin", 0), e = call.attr_int("end", INT32_MAX), s = call.attr_int("step", 1);
  if (s < 1) return call.fail("step must be at least 1");
  if (b < 0) b += cols;
  if (e < 0) e += cols;
  b = std::clamp<int64_t>(b, 0, cols);
  e = std::clamp<int64_t>(e, 0, cols);
  if (e <= b) return call.fail("the slice is empty");
  const int64_t n = (e - b + s - 1) / s;
  if (y.size != rows * n) return call.fail("y must be [..., ceil((end - begin) / step)]");
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) y.data[r * n + j] = x.data[r * cols + b + j * s];
  return 0;
}
