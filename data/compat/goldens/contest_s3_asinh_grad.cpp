// Gradient of y = asinh(x) expressed through y: dx = dy / cosh(y) (= dy / sqrt(1 + x^2)),
// elementwise (TensorFlow AsinhGrad(y, dy)). Output z.
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& y = call.input("y");
  const AocGoldenTensor& dy = call.input("dy");
  AocGoldenTensor& z = call.output("z");
  for (int64_t i = 0; i < z.size; ++i) {
    const real a = static_cast<real>(y.data[y.size == z.size ? i : i % y.size]);
    const real g = static_cast<real>(dy.data[dy.size == z.size ? i : i % dy.size]);
    z.data[i] = g / std::cosh(a);
  }
  return 0;
}
