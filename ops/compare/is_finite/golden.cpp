// Reference for is_finite: y = 1 for finite x, 0 for NaN and +-inf.
#include <cmath>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = std::isfinite(x.data[i]) ? 1.0 : 0.0;
  return 0;
}
