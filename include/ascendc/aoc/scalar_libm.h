// The float functions of the C math library that kernel scalar code calls (sqrtf, expf ...),
// declared one by one instead of through <cmath>/<math.h>, which would also declare sqrt, exp,
// log ... in the global namespace: names kernels use for themselves (an operator called exp has
// the entry `extern "C" void exp(GM_ADDR x, ...)`). A kernel that includes <cmath> itself still
// compiles: these declarations match the C library's.
#pragma once

extern "C" {
float sqrtf(float) noexcept;
float expf(float) noexcept;
float logf(float) noexcept;
float powf(float, float) noexcept;
float fabsf(float) noexcept;
float floorf(float) noexcept;
float ceilf(float) noexcept;
float roundf(float) noexcept;
float truncf(float) noexcept;
float tanhf(float) noexcept;
float fmaxf(float, float) noexcept;
float fminf(float, float) noexcept;
}

// The floating-point constants of <math.h> that kernel scalar code uses (a running maximum starts
// at -INFINITY). They are macros, so defining them declares no name a kernel could collide with;
// the definitions are the ones <math.h> gives, so including it afterwards changes nothing.
#ifndef INFINITY
#define INFINITY (__builtin_inff())
#endif
#ifndef NAN
#define NAN (__builtin_nanf(""))
#endif
#ifndef HUGE_VALF
#define HUGE_VALF (__builtin_huge_valf())
#endif

// The overloaded names (`1 / sqrt(x)` on a float) that kernel scalar code calls unqualified next
// to `using namespace AscendC;`, as the device compiler's math library provides them. They live in
// namespace AscendC, not the global one, so an operator's extern "C" entry of the same name stays
// free; and they are templates, so in a kernel that includes <cmath> as well, the C library's
// non-template overload is the better match and the call is not ambiguous.
#include <type_traits>

#include "aoc/math_fn.h"

namespace AscendC {
#define AOC_SCALAR_FN1(name)                                                                                 \
  template <typename F> requires std::is_arithmetic_v<F> AOC_FORCE_INLINE auto name(F x) { return aoc::fn::name(x); }
AOC_SCALAR_FN1(sqrt)
AOC_SCALAR_FN1(exp)
AOC_SCALAR_FN1(log)
AOC_SCALAR_FN1(log2)
AOC_SCALAR_FN1(log10)
AOC_SCALAR_FN1(fabs)
AOC_SCALAR_FN1(floor)
AOC_SCALAR_FN1(ceil)
AOC_SCALAR_FN1(trunc)
AOC_SCALAR_FN1(round)
AOC_SCALAR_FN1(sin)
AOC_SCALAR_FN1(cos)
AOC_SCALAR_FN1(tanh)
#undef AOC_SCALAR_FN1
template <typename F> requires std::is_floating_point_v<F> AOC_FORCE_INLINE F pow(F b, F e) { return aoc::fn::pow(b, e); }
}  // namespace AscendC
