// Reference for gcd: y = gcd(x1, x2) elementwise, the greatest common divisor of the absolute
// values (gcd(a, 0) = |a|, gcd(0, 0) = 0), x2 broadcast to x1's shape by NumPy's rules (shapes
// aligned at the last dimension, a dimension of 1 repeated). The output has x1's shape.
#include <cstdint>
#include <numeric>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  golden_api::Broadcast at(y);
  if (y.size != a.size || !at.fits(b)) return call.fail("x2 does not broadcast to x1's shape");
  for (int64_t i = 0; i < y.size; ++i, at.next()) {
    const auto p = static_cast<long long>(a.data[i]);
    const auto q = static_cast<long long>(b.data[at.offset(b)]);
    y.data[i] = static_cast<double>(std::gcd(p, q));
  }
  return 0;
}
