// ks_s3_div: y = x1 / x2 (TensorFlow Div): true division for floating types, the quotient
// truncated toward zero for integer types; x2 broadcasts to x1's shape (NumPy rules), and y has
// x1's shape. Integer results are saturated to the output's type by the runner's store.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  golden_api::Broadcast at(y);
  if (!at.fits(a) || !at.fits(b)) return call.fail("x1 and x2 do not broadcast to y's shape");
  // The golden gets no dtype: an integer variant is recognised by every value of both inputs
  // being finite and integral (the float cases draw fractional values).
  bool ints = true;
  for (int64_t i = 0; i < a.size && ints; ++i) ints = std::isfinite(a.data[i]) && std::floor(a.data[i]) == a.data[i];
  for (int64_t i = 0; i < b.size && ints; ++i) ints = std::isfinite(b.data[i]) && std::floor(b.data[i]) == b.data[i];
  for (int64_t i = 0; i < y.size; ++i, at.next()) {
    const real p = static_cast<real>(a.data[at.offset(a)]);
    const real q = static_cast<real>(b.data[at.offset(b)]);
    y.data[i] = ints && q != 0 ? std::trunc(p / q) : p / q;
  }
  return 0;
}
