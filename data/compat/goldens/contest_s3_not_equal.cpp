// y = (x1 != x2) elementwise (TensorFlow NotEqual), a bool tensor, with NumPy-style broadcasting
// of x1 and x2 to the output shape. NaN compares unequal to everything, itself included.
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
    const double x = a.data[at.offset(a)];
    const double z = b.data[at.offset(b)];
    y.data[i] = (x != z) ? 1.0 : 0.0;
  }
  return 0;
}
