// Whether vector code written for float would still pass the precision gate computed natively
// in float16. A single float16 rounding of a well-conditioned step is within the gate's
// tolerance; what fails it is a rounded float16 intermediate fed to a step that magnifies its
// error relative to the result:
// - an addition whose terms may have opposite signs (Add, Sub, Adds, Subs, Axpy) with a rounded
//   term: where the terms cancel, the term's error exceeds the small result (the gate's
//   small-value and cancellation regions count exactly these);
// - Exp, Sigmoid, Ln, Log, Power of a rounded argument: exp(z) carries the absolute error of z
//   as a relative error, |z| times z's own; a logarithm near 1 divides by a small result;
// - a rounded value cast to an integer (coordinates, indices): float16 holds integers exactly
//   only up to 2048;
// - reductions: an accumulation over many elements in float16 loses far more than one rounding;
// - a division of two values that overflow float16 where float stays finite (exp above
//   ln 65504 = 11.09, unless a Mins or the argument's sign bounds it): inf / inf is NaN, and
//   the gate requires NaN exactly where the reference has it. (0 * inf is not looked for.)
// The analysis follows each function's calls in order, with for every tensor whether it holds
// a rounded value and its sign when known (absolute, or relative to an input tensor: x*x*x has
// x's sign, so x + 0.04*x*x*x cannot cancel). Inputs (tensors read before any call writes them
// in the function) are exact; a function with a loop is followed twice, so values carried
// from one iteration to the next are seen rounded.
#pragma once
#include <string>
#include <vector>

#include "kernel_model.h"

namespace aoc::rewrite {

// The first step of `calls` (one class's or one kernel's calls, any order) that float16 would
// compute outside the precision gate, described with its line; "" when there is none.
std::string half_precision_hazard(const KernelModel& m, const std::vector<const Call*>& calls);

}  // namespace aoc::rewrite
