// Reference for apply_fused_ema_adam: one Adam / AdamW step followed by an exponential moving
// average of the updated parameters, elementwise over tensors of one shape.
//   mode 0 (L2 regularisation): g = grad + weight_decay * var;  mode 1 (AdamW): g = grad
//   m' = beta1 m + (1 - beta1) g
//   v' = beta2 v + (1 - beta2) g^2
//   c1 = 1 - beta1^step, c2 = 1 - beta2^step when bias_correction, else c1 = c2 = 1
//   u  = (m' / c1) / (sqrt(v' / c2) + eps)  [+ weight_decay * var in mode 1]
//   var' = var - lr u
//   s' = ema_decay s + (1 - ema_decay) var'
// step is a one-element int64 tensor. Outputs var, m, v, s (updated in place by the operator).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& grad = call.input("grad");
  const AocGoldenTensor& var = call.input("var");
  const AocGoldenTensor& m = call.input("m");
  const AocGoldenTensor& v = call.input("v");
  const AocGoldenTensor& s = call.input("s");
  const AocGoldenTensor& step = call.input("step");
  AocGoldenTensor& var_o = call.output("var");
  AocGoldenTensor& m_o = call.output("m");
  AocGoldenTensor& v_o = call.output("v");
  AocGoldenTensor& s_o = call.output("s");
  const int64_t n = grad.size;
  if (var.size != n || m.size != n || v.size != n || s.size != n || var_o.size != n || m_o.size != n ||
      v_o.size != n || s_o.size != n)
    return call.fail("grad, var, m, v and s (and the outputs) must have one shape");
  if (step.size < 1) return call.fail("step must hold one element");

  const real lr = call.attr_float("lr", 1e-3);
  const real ema = call.attr_float("ema_decay", 0.9999);
  const real b1 = call.attr_float("beta1", 0.9);
  const real b2 = call.attr_float("beta2", 0.999);
  const real eps = call.attr_float("eps", 1e-8);
  const int64_t mode = call.attr_int("mode", 1);
  const bool bias_correction = call.attr_bool("bias_correction", true);
  const real wd = call.attr_float("weight_decay", 0.0);
  const real t = static_cast<real>(step.data[0]);
  const real c1 = bias_correction ? real(1) - std::pow(b1, t) : real(1);
  const real c2 = bias_correction ? real(1) - std::pow(b2, t) : real(1);

  for (int64_t i = 0; i < n; ++i) {
    const real p = static_cast<real>(var.data[i]);
    real g = static_cast<real>(grad.data[i]);
    if (mode == 0) g += wd * p;
    const real m1 = b1 * static_cast<real>(m.data[i]) + (real(1) - b1) * g;
    const real v1 = b2 * static_cast<real>(v.data[i]) + (real(1) - b2) * g * g;
    real u = (m1 / c1) / (std::sqrt(v1 / c2) + eps);
    if (mode == 1) u += wd * p;
    const real p1 = p - lr * u;
    m_o.data[i] = m1;
    v_o.data[i] = v1;
    var_o.data[i] = p1;
    s_o.data[i] = ema * static_cast<real>(s.data[i]) + (real(1) - ema) * p1;
  }
  return 0;
}
