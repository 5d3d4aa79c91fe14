// Reference for where: y = condition ? x1 : x2 (condition arrives as 0/1).
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& c = call.input("condition");
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  if (a.size != c.size || b.size != c.size) return call.fail("x1 and x2 must have as many elements as condition");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = c.data[i] != 0.0 ? a.data[i] : b.data[i];
  return 0;
}
