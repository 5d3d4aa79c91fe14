// Reference of the axpy fixture operator for the public-set test: z = alpha * x + y, negated
// when mode is "negate".
#include <cstring>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  AocGoldenTensor& z = call.output("z");
  const golden_api::real alpha = call.attr_float("alpha", 2.5);
  const golden_api::real sign = std::strcmp(call.attr_str("mode", "plain"), "negate") == 0 ? -1 : 1;
  for (int64_t i = 0; i < z.size; ++i) z.data[i] = sign * (alpha * x.data[i] + y.data[i]);
  return 0;
}
