// Golden for reshape: y holds x's elements in the same (row-major) order; only the shape
// changes, so the flat data is copied unchanged. The `shape` input only names the new shape.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.size != y.size) return call.fail("reshape keeps the element count");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = x.data[i];
  return 0;
}
