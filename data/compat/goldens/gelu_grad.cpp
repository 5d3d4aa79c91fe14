// Reference for gelu_grad: the gradient of the tanh-approximated GELU (TensorFlow's GeluGrad,
// PyTorch's gelu backward with approximate="tanh"), times dy. The third input y (the forward
// output) is not needed by the derivative and is ignored.
//   gelu(x) = x * s,  s = sigmoid(2u) = (1 + tanh u) / 2,  u = sqrt(2/pi) (x + 0.044715 x^3)
//   z = dy * (s + x * s (1 - s) * 2 du/dx),  du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2)
// The sigmoid is evaluated from t = exp(-2|u|), which never overflows.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& dy = call.input("dy");
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& z = call.output("z");
  if (dy.size != z.size || x.size != z.size) return call.fail("dy, x and z must have one shape");
  const real c = std::sqrt(real(2) / real(3.14159265358979323846));
  const real a = real(0.044715);
  for (int64_t i = 0; i < z.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    const real g = static_cast<real>(dy.data[i]);
    const real u = c * (v + a * v * v * v);
    const real t = std::exp(real(-2) * std::fabs(u));
    const real inv = real(1) / (real(1) + t);
    const real s = u >= real(0) ? inv : t * inv;
    const real ds = t * inv * inv;  // s (1 - s)
    const real du = c * (real(1) + real(3) * a * v * v);
    z.data[i] = g * (s + v * ds * real(2) * du);
  }
  return 0;
}
