// Reference for masked_fill: y = mask ? value : x, the mask broadcast over x's leading axes
// (its element count is that of x's trailing axes).
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& mask = call.input("mask");
  AocGoldenTensor& y = call.output("y");
  const double value = call.attr_float("value", 0.0);
  if (mask.size <= 0 || x.size % mask.size != 0) return call.fail("mask must cover x's trailing axes");
  if (y.size != x.size) return call.fail("y must have x's shape");
  for (int64_t i = 0; i < x.size; ++i) y.data[i] = mask.data[i % mask.size] != 0.0 ? value : x.data[i];
  return 0;
}
