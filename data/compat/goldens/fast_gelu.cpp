// Reference for fast_gelu, in the form the operator's docs give:
//   y = x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))
// which equals x / (1 + exp(-1.702 x)) = x * sigmoid(1.702 x) and has no cancellation for x < 0.
// At x = -inf it gives NaN (-inf * 0), as the formula does; at +inf, +inf.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    if (!(v < real(0))) {  // x >= 0 or NaN: the factor exp(0.851 (x - |x|)) is 1 (also at +inf)
      y.data[i] = v / (real(1) + std::exp(real(-1.702) * v));
    } else {  // x < 0: |x| = -x, the factor is exp(1.702 x)
      const real e = std::exp(real(1.702) * v);
      y.data[i] = v / (real(1) + e) * e;
    }
  }
  return 0;
}
