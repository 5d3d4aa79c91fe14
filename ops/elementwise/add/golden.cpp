// Reference for add: z = x + y in double precision.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  aoc_golden::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  AocGoldenTensor& z = call.output("z");
  if (x.size != y.size) return call.fail("x and y must have the same number of elements");
  for (int64_t i = 0; i < z.size; ++i) z.data[i] = x.data[i] + y.data[i];
  return 0;
}
