// Reference of the Add ladder: z = x + y.
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  AocGoldenTensor& z = call.output("z");
  if (x.size != y.size) return call.fail("x and y must have the same number of elements");
  for (int64_t i = 0; i < z.size; ++i) z.data[i] = static_cast<real>(x.data[i]) + static_cast<real>(y.data[i]);
  return 0;
}
