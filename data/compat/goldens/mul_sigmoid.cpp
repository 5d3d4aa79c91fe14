// MulSigmoid (docs/MulSigmoid.md): s = sigmoid(x1 * t1); s' = (s < t2) ? s : 2 * s;
// out = s' * x2 * t3, where x1 is [rows, C], x2 is [1, C/128, 128] (one row of C values shared by
// every row of x1) and out is [rows, C/128, 128]. t1, t2, t3 are REQUIRED float attributes.
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x1 = call.input("x1");
  const AocGoldenTensor& x2 = call.input("x2");
  AocGoldenTensor& out = call.output("out");
  const real t1 = static_cast<real>(call.attr_float("t1", 0.0));
  const real t2 = static_cast<real>(call.attr_float("t2", 0.0));
  const real t3 = static_cast<real>(call.attr_float("t3", 0.0));
  const int64_t cols = x2.size;
  if (cols <= 0 || x1.size % cols != 0 || out.size != x1.size)
    return call.fail("x2 must hold one row of x1 (x1 [rows, C], x2 [1, C/128, 128])");
  for (int64_t i = 0; i < out.size; ++i) {
    const real a = static_cast<real>(x1.data[i]);
    const real s = real(1) / (real(1) + std::exp(-a * t1));
    const real sel = s < t2 ? s : real(2) * s;
    out.data[i] = sel * static_cast<real>(x2.data[i % cols]) * t3;
  }
  return 0;
}
