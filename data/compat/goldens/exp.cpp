// Reference for exp (the Exp operator with base, scale and shift, as ONNX / TensorFlow define it):
//   y = base^(scale * x + shift), and with base = -1 (the default) the natural exponential
//   y = e^(scale * x + shift). Any other base must be positive (the operator refuses it).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const real base = static_cast<real>(call.attr_float("base", -1.0));
  const real scale = static_cast<real>(call.attr_float("scale", 1.0));
  const real shift = static_cast<real>(call.attr_float("shift", 0.0));
  if (base != real(-1) && !(base > real(0))) return call.fail("base must be -1 (natural exponential) or positive");
  const real ln_base = base == real(-1) ? real(1) : std::log(base);
  for (int64_t i = 0; i < y.size; ++i) {
    const real t = scale * static_cast<real>(x.data[i]) + shift;
    y.data[i] = std::exp(t * ln_base);
  }
  return 0;
}
