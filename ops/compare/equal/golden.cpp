// Reference for equal: y = (x1 == x2) as 1/0 (IEEE: NaN equals nothing).
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  if (b.size != a.size) return call.fail("x2 must have as many elements as x1");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = a.data[i] == b.data[i] ? 1.0 : 0.0;
  return 0;
}
