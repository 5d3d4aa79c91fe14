// Reference for mish: y = x tanh(log1p(exp(x))) (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    y.data[i] = v * std::tanh(std::log1p(std::exp(v)));
  }
  return 0;
}
