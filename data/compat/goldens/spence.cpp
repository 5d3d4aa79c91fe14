// Spence's function in the convention the operator's tests compare against (scipy / TensorFlow):
//   spence(x) = integral_1^x ln(t) / (1 - t) dt = Li2(1 - x),   x >= 0,
// so spence(0) = pi^2/6, spence(1) = 0, spence(x) -> -ln(x)^2 / 2 as x -> inf.
// (The formula in docs/Spence.md carries an extra minus sign; its examples and st tests use
// scipy.special.spence / tf.math.special.spence, the convention above.)
// Real-valued only for x >= 0: x < 0 gives NaN, as scipy does; +inf gives -inf (the limit).
// Li2 is evaluated with its power series on |z| <= 1/2 and the reflection / Landen / inversion
// identities elsewhere.
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

namespace {

constexpr double kPi2Over6 = 1.6449340668482264365;  // pi^2 / 6

double li2(double z) {  // real dilogarithm, z <= 1
  if (z == 1.0) return kPi2Over6;
  if (z > 0.5) return kPi2Over6 - std::log(z) * std::log1p(-z) - li2(1.0 - z);
  if (z >= -0.5) {
    double zk = z, sum = 0.0;
    for (int k = 1; k < 200; ++k) {
      const double t = zk / (static_cast<double>(k) * k);
      sum += t;
      if (std::fabs(t) <= 1e-18 * std::fabs(sum)) break;
      zk *= z;
    }
    return sum;
  }
  if (z >= -1.0) {  // Landen: z / (z - 1) lies in (1/3, 1/2]
    const double l = std::log1p(-z);
    return -li2(z / (z - 1.0)) - 0.5 * l * l;
  }
  const double l = std::log(-z);  // inversion: 1/z lies in (-1, 0)
  return -kPi2Over6 - 0.5 * l * l - li2(1.0 / z);
}

}  // namespace

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) {
    const double v = x.data[i];
    double r;
    if (std::isnan(v) || v < 0.0) r = std::nan("");
    else if (std::isinf(v)) r = -INFINITY;
    else r = li2(1.0 - v);
    y.data[i] = static_cast<real>(r);
  }
  return 0;
}
