// z = x1 / x2 elementwise (TensorFlow's Div), with NumPy-style broadcasting of x1 and x2 to the
// output shape. Floating types divide exactly (the runner rounds to the output dtype once);
// integer types (int32, int8) divide with truncation toward zero, as C and TF's Div do.
// The golden sees doubles and no dtype, so integer inputs are recognised by every value of both
// inputs being an integer (float cases draw non-integral values).
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

static bool all_integral(const AocGoldenTensor& t) {
  for (int64_t i = 0; i < t.size; ++i)
    if (!std::isfinite(t.data[i]) || t.data[i] != std::trunc(t.data[i])) return false;
  return true;
}

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& z = call.output("z");
  const bool integral = all_integral(a) && all_integral(b);
  golden_api::Broadcast at(z);
  for (int64_t i = 0; i < z.size; ++i, at.next()) {
    const real x = static_cast<real>(a.data[at.offset(a)]);
    const real y = static_cast<real>(b.data[at.offset(b)]);
    z.data[i] = integral ? std::trunc(static_cast<double>(x) / static_cast<double>(y)) : x / y;
  }
  return 0;
}
