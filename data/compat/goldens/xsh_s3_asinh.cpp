// xsh_s3_asinh: y = asinh(x) = sign(x) * ln(|x| + sqrt(x^2 + 1)), elementwise (input named X).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("X");
  AocGoldenTensor& y = call.output("y");
  if (x.size != y.size) return call.fail("X and y differ in size");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = std::asinh(static_cast<real>(x.data[i]));
  return 0;
}
