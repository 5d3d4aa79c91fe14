// KlDivTargetBackward: gradient of kl_div(self, target) with respect to target
// (PyTorch's kl_div backward for the target; self holds log-probabilities).
//   log_target = false: grad_target = grad_output * (log(target) + 1 - self), and 0 where target == 0
//   log_target = true:  grad_target = grad_output * (target + 1 - self) * exp(target)
//   reduction = 1 ("mean") divides by the element count of target; 0 ("none") and 2 ("sum") do not.
// The three inputs share one shape (element for element).
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& go = call.input("grad_output");
  const AocGoldenTensor& s = call.input("self");
  const AocGoldenTensor& t = call.input("target");
  AocGoldenTensor& gt = call.output("grad_target");
  if (go.size != t.size || s.size != t.size || gt.size != t.size)
    return call.fail("grad_output, self, target and grad_target must have the same element count");
  const int64_t reduction = call.attr_int("reduction", 0);
  const bool log_target = call.attr_bool("log_target", false);
  const real scale = reduction == 1 ? real(1) / static_cast<real>(t.size) : real(1);
  for (int64_t i = 0; i < t.size; ++i) {
    const real g = static_cast<real>(go.data[i]);
    const real x = static_cast<real>(s.data[i]);
    const real v = static_cast<real>(t.data[i]);
    real r;
    if (log_target) {
      r = g * (v + real(1) - x) * std::exp(v);
    } else {
      r = v == real(0) ? real(0) : g * (std::log(v) + real(1) - x);
    }
    gt.data[i] = r * scale;
  }
  return 0;
}
