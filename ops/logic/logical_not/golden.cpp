// Reference for logical_not: y = !x (inputs arrive as 0/1).
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = x.data[i] != 0.0 ? 0.0 : 1.0;
  return 0;
}
