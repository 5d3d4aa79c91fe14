// Reference for one Adam step (in golden_api::real: double for the reference).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& param = call.input("param");
  const AocGoldenTensor& grad = call.input("grad");
  const AocGoldenTensor& m = call.input("m");
  const AocGoldenTensor& v = call.input("v");
  AocGoldenTensor& paramOut = call.output("param_out");
  AocGoldenTensor& mOut = call.output("m_out");
  AocGoldenTensor& vOut = call.output("v_out");
  const real lr = call.attr_float("lr", 1e-3);
  const real beta1 = call.attr_float("beta1", 0.9);
  const real beta2 = call.attr_float("beta2", 0.999);
  const real eps = call.attr_float("eps", 1e-8);
  const int64_t step = call.attr_int("step", 1);
  if (step < 1) return call.fail("step must be at least 1");
  const real bias1 = 1 - std::pow(beta1, static_cast<real>(step));
  const real bias2 = 1 - std::pow(beta2, static_cast<real>(step));
  for (int64_t i = 0; i < param.size; ++i) {
    const real g = static_cast<real>(grad.data[i]);
    const real mNew = beta1 * static_cast<real>(m.data[i]) + (1 - beta1) * g;
    const real vNew = beta2 * static_cast<real>(v.data[i]) + (1 - beta2) * g * g;
    const real denom = std::sqrt(vNew / bias2) + eps;
    mOut.data[i] = mNew;
    vOut.data[i] = vNew;
    paramOut.data[i] = static_cast<real>(param.data[i]) - lr / bias1 * mNew / denom;
  }
  return 0;
}
