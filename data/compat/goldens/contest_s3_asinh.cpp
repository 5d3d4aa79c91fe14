// y = asinh(x) = ln(x + sqrt(x^2 + 1)), elementwise (TensorFlow Asinh).
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = std::asinh(static_cast<real>(x.data[i]));
  return 0;
}
