// Scalar math for the API implementation, without <cmath>. Including <cmath> declares the C
// library's names (sqrt, exp, log ...) in the global namespace, and kernels are free to use
// those names for themselves: an operator called sqrt has the entry `extern "C" void sqrt(GM_ADDR
// x, ...)`, which would conflict. The GCC builtins need no declaration; when a builtin is not
// expanded inline it calls the C library, and a kernel library resolves that call through the
// program's global scope (the C library) before its own symbols, so a kernel named exp never
// receives the call.
//
// Everything is AOC_FORCE_INLINE so that the functions disappear into their callers exactly as
// the one-line <cmath> wrappers did (no call, no basic block of their own).
#pragma once

#include <type_traits>

#include "aoc/instrumentation.h"

namespace aoc::fn {

#define AOC_MATH_FN1(name)                                                                   \
  AOC_FORCE_INLINE float name(float x) { return __builtin_##name##f(x); }                   \
  AOC_FORCE_INLINE double name(double x) { return __builtin_##name(x); }                    \
  AOC_FORCE_INLINE long double name(long double x) { return __builtin_##name##l(x); }       \
  template <typename I> requires std::is_integral_v<I>                                      \
  AOC_FORCE_INLINE double name(I x) { return __builtin_##name(static_cast<double>(x)); }

AOC_MATH_FN1(sqrt)
AOC_MATH_FN1(exp)
AOC_MATH_FN1(log)
AOC_MATH_FN1(log2)
AOC_MATH_FN1(log10)
AOC_MATH_FN1(fabs)
AOC_MATH_FN1(floor)
AOC_MATH_FN1(ceil)
AOC_MATH_FN1(trunc)
AOC_MATH_FN1(round)
AOC_MATH_FN1(sin)
AOC_MATH_FN1(cos)
AOC_MATH_FN1(sinh)
AOC_MATH_FN1(cosh)
AOC_MATH_FN1(tanh)
AOC_MATH_FN1(erf)
AOC_MATH_FN1(erfc)
#undef AOC_MATH_FN1

AOC_FORCE_INLINE float pow(float b, float e) { return __builtin_powf(b, e); }
AOC_FORCE_INLINE double pow(double b, double e) { return __builtin_pow(b, e); }
AOC_FORCE_INLINE float fmod(float a, float b) { return __builtin_fmodf(a, b); }
AOC_FORCE_INLINE double fmod(double a, double b) { return __builtin_fmod(a, b); }
AOC_FORCE_INLINE long double fmod(long double a, long double b) { return __builtin_fmodl(a, b); }
AOC_FORCE_INLINE float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
AOC_FORCE_INLINE double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
AOC_FORCE_INLINE long double frexp(long double x, int* e) { return __builtin_frexpl(x, e); }
AOC_FORCE_INLINE double frexp(double x, int* e) { return __builtin_frexp(x, e); }
AOC_FORCE_INLINE float frexp(float x, int* e) { return __builtin_frexpf(x, e); }
AOC_FORCE_INLINE long double ldexp(long double x, int e) { return __builtin_ldexpl(x, e); }
AOC_FORCE_INLINE double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
AOC_FORCE_INLINE float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }

AOC_FORCE_INLINE bool isnan(float x) { return __builtin_isnan(x); }
AOC_FORCE_INLINE bool isnan(double x) { return __builtin_isnan(x); }
AOC_FORCE_INLINE bool isnan(long double x) { return __builtin_isnan(x); }
AOC_FORCE_INLINE bool isinf(float x) { return __builtin_isinf(x); }
AOC_FORCE_INLINE bool isinf(double x) { return __builtin_isinf(x); }
AOC_FORCE_INLINE bool isinf(long double x) { return __builtin_isinf(x); }

}  // namespace aoc::fn
