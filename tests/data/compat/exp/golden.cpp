// Reference for the compatibility fixture: y = exp(x).
#include <cmath>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = std::exp(static_cast<golden_api::real>(x.data[i]));
  return 0;
}
