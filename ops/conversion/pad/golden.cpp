// Reference for constant padding of the last axis: pads = [left, right], value.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const AocGoldenAttr* pads = call.attr("pads");
  const double value = call.attr_float("value", 0.0);
  if (pads == nullptr || pads->len != 2 || pads->li[0] < 0 || pads->li[1] < 0) {
    return call.fail("pads must be [left, right], both >= 0");
  }
  const int64_t left = pads->li[0];
  const int64_t right = pads->li[1];
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  const int64_t outCols = left + cols + right;
  for (int64_t r = 0; r < rows; ++r) {
    double* out = y.data + r * outCols;
    for (int64_t c = 0; c < left; ++c) out[c] = value;
    for (int64_t c = 0; c < cols; ++c) out[left + c] = x.data[r * cols + c];
    for (int64_t c = 0; c < right; ++c) out[left + cols + c] = value;
  }
  return 0;
}
