// Single-source instructions: dst = f(src) lane by lane, in both call forms. Math
// functions are evaluated in float for half lanes and rounded back once.
#pragma once
#include <cstdint>

#include "aoc/math_fn.h"
#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

// Defines the count form and both level-0 forms of a unary instruction. LANE is a
// statement over `T& d, const T& a`.
#define AOC_VEC_UNARY(NAME, TYPE_OK, LANE)                                                                          \
  namespace aoc::vec::lane {                                                                                         \
  struct NAME {                                                                                                      \
    template <typename T> AOC_FORCE_INLINE void operator()(T& d, const T& a) const { LANE; }                         \
  };                                                                                                                 \
  }                                                                                                                  \
  namespace AscendC {                                                                                                \
  template <typename T>                                                                                              \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, AOC_VEC_LOC) {        \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::unary_count(aoc::vec::Call{#NAME, loc}, aoc::vec::lane::NAME{}, dst, src, count);                      \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                      \
                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {                   \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::unary_level0(aoc::vec::Call{#NAME, loc}, aoc::vec::lane::NAME{}, dst, src,                             \
                           aoc::vec::mask_arg<T>(mask), repeatTime, repeatParams, isSetMask);                        \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,                        \
                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {                   \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::unary_level0(aoc::vec::Call{#NAME, loc}, aoc::vec::lane::NAME{}, dst, src,                             \
                           aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);                     \
  }                                                                                                                  \
  }

AOC_VEC_UNARY(Exp, aoc::vec::float_type<T>, d = T(aoc::fn::exp(float(a))))
AOC_VEC_UNARY(Ln, aoc::vec::float_type<T>, d = T(aoc::fn::log(float(a))))
AOC_VEC_UNARY(Sqrt, aoc::vec::float_type<T>, d = T(aoc::fn::sqrt(float(a))))
AOC_VEC_UNARY(Rsqrt, aoc::vec::float_type<T>, d = T(1.0f / aoc::fn::sqrt(float(a))))
AOC_VEC_UNARY(Reciprocal, aoc::vec::float_type<T>, d = T(1.0f / float(a)))
AOC_VEC_UNARY(Abs, (aoc::vec::one_of<T, half, float, int16_t, int32_t>), d = aoc::vec::abs(a))
AOC_VEC_UNARY(Relu, (aoc::vec::one_of<T, half, float, int32_t>), d = aoc::vec::relu(a))
AOC_VEC_UNARY(Neg, (aoc::vec::one_of<T, half, float, int16_t, int32_t>), d = aoc::vec::neg(a))
AOC_VEC_UNARY(Not, (aoc::vec::one_of<T, int16_t, uint16_t>), d = static_cast<T>(~a))
