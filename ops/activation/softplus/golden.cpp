// Reference for softplus: y = log1p(exp(beta x)) / beta, x where beta x > threshold (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const real beta = static_cast<real>(call.attr_float("beta", 1.0));
  const real threshold = static_cast<real>(call.attr_float("threshold", 20.0));
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    const real t = beta * v;
    y.data[i] = t > threshold ? v : std::log1p(std::exp(t)) / beta;
  }
  return 0;
}
