// Reference for split of the last axis into three consecutive parts: sizes = [S0, S1, S2]
// (all zero: three equal parts).
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor* y[3] = {&call.output("y0"), &call.output("y1"), &call.output("y2")};
  const AocGoldenAttr* sizes = call.attr("sizes");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (sizes == nullptr || sizes->len != 3) return call.fail("sizes must list three part widths");
  int64_t width[3] = {sizes->li[0], sizes->li[1], sizes->li[2]};
  if (width[0] == 0 && width[1] == 0 && width[2] == 0) {
    if (cols % 3 != 0) return call.fail("equal parts need a last dimension that is a multiple of 3");
    width[0] = width[1] = width[2] = cols / 3;
  }
  if (width[0] <= 0 || width[1] <= 0 || width[2] <= 0 || width[0] + width[1] + width[2] != cols) {
    return call.fail("sizes must be positive and add up to x's last dimension");
  }
  int64_t start = 0;
  for (int p = 0; p < 3; ++p) {
    if (y[p]->size != rows * width[p]) return call.fail("each output must be [..., sizes[i]]");
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < width[p]; ++c) y[p]->data[r * width[p] + c] = x.data[r * cols + start + c];
    }
    start += width[p];
  }
  return 0;
}
