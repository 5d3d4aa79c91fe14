// y = log_base(scale * x + shift); base = -1 (the default) means the natural logarithm, any other
// base must be positive (log(.) / log(base)).
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;
extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const real base = call.attr_float("base", -1.0);
  const real scale = call.attr_float("scale", 1.0);
  const real shift = call.attr_float("shift", 0.0);
  if (base != real(-1) && !(base > 0)) return call.fail("base must be -1 (natural log) or positive");
  const real inv_ln_base = base == real(-1) ? real(1) : real(1) / std::log(base);
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = scale * static_cast<real>(x.data[i]) + shift;
    y.data[i] = std::log(v) * inv_ln_base;
  }
  return 0;
}
