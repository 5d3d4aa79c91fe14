// SubFrameworklaunch: z = x - y elementwise (fp16), x and y of one shape.
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  AocGoldenTensor& z = call.output("z");
  if (x.size != z.size || y.size != z.size) return call.fail("x, y and z must have one element count");
  for (int64_t i = 0; i < z.size; ++i) z.data[i] = static_cast<real>(x.data[i]) - static_cast<real>(y.data[i]);
  return 0;
}
