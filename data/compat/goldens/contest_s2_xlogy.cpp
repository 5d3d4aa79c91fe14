// y = xlogy(x1, x2) = x1 * ln(x2), elementwise, with y = 0 where x1 == 0 (unless x2 is NaN),
// as torch.xlogy / TensorFlow Xlogy define it; NumPy-style broadcasting of x1 and x2.
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  golden_api::Broadcast at(y);
  for (int64_t i = 0; i < y.size; ++i, at.next()) {
    const real x = static_cast<real>(a.data[at.offset(a)]);
    const real z = static_cast<real>(b.data[at.offset(b)]);
    y.data[i] = (x == 0 && !std::isnan(z)) ? real(0) : x * std::log(z);
  }
  return 0;
}
