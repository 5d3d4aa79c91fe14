// AngleV2 on real inputs: the argument of x seen as a complex number with zero imaginary part,
//   y = pi for x < 0, 0 for x >= 0 (including -0 and +inf), NaN for NaN.
// Float inputs keep their dtype; bool and integer inputs give float32.
#include <cmath>
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (y.size != x.size) return call.fail("y must have x's element count");
  const double pi = 3.14159265358979323846;
  for (int64_t i = 0; i < x.size; ++i) {
    const double v = x.data[i];
    y.data[i] = std::isnan(v) ? v : (v < 0.0 ? pi : 0.0);
  }
  return 0;
}
