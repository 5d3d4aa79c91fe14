// Reference for addcdiv: y = x + value * tensor1 / tensor2 (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x_t = call.input("x");
  const AocGoldenTensor& tensor1_t = call.input("tensor1");
  const AocGoldenTensor& tensor2_t = call.input("tensor2");
  AocGoldenTensor& out = call.output("y");
  const real value = call.attr_float("value", 1.0);
  if (tensor1_t.size != x_t.size) return call.fail("tensor1 must have as many elements as x");
  if (tensor2_t.size != x_t.size) return call.fail("tensor2 must have as many elements as x");
  for (int64_t i = 0; i < out.size; ++i) {
    const real x = static_cast<real>(x_t.data[i]);
    const real tensor1 = static_cast<real>(tensor1_t.data[i]);
    const real tensor2 = static_cast<real>(tensor2_t.data[i]);
    out.data[i] = x + value * tensor1 / tensor2;
  }
  return 0;
}
