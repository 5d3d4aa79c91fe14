// Reference for hardswish: y = x * min(max(x + 3, 0), 6) / 6 (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    const real r6 = std::fmin(std::fmax(v + real(3), real(0)), real(6));
    y.data[i] = std::isnan(v) ? v : v * r6 / real(6);
  }
  return 0;
}
