// Tensor-scalar instructions: dst = f(src, scalar) lane by lane, in both call forms.
// The scalar parameter is not deduced, so `Adds(halfDst, halfSrc, 2.0f, n)` converts
// the float to half as the device API does.
#pragma once
#include <cstdint>
#include <type_traits>

#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

template <typename T> AOC_FORCE_INLINE T shift_right(T a, int64_t s, bool round) {
  if (s <= 0) return a;
  if (s >= int64_t(sizeof(T) * 8)) return a < 0 ? T(-1) : T(0);
  int64_t v = static_cast<int64_t>(a);
  if (round) v += int64_t(1) << (s - 1);  // round half up instead of truncating
  if constexpr (std::is_signed_v<T>) return static_cast<T>(v >> s);
  else return static_cast<T>(static_cast<uint64_t>(v) >> s);
}
template <typename T> AOC_FORCE_INLINE T shift_left(T a, int64_t s) {
  if (s <= 0) return a;
  if (s >= int64_t(sizeof(T) * 8)) return T(0);
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << s);
}

}  // namespace aoc::vec

// LANE is a statement over `T& d, const T& a, const T& s` (s = the scalar).
#define AOC_VEC_SCALAR(NAME, TYPE_OK, LANE)                                                                         \
  namespace aoc::vec::lane {                                                                                         \
  template <typename T> struct NAME {                                                                                \
    T s;                                                                                                             \
    bool round = false;                                                                                              \
    AOC_FORCE_INLINE void operator()(T& d, const T& a) const { LANE; }                                               \
  };                                                                                                                 \
  }                                                                                                                  \
  namespace AscendC {                                                                                                \
  template <typename T>                                                                                              \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                   const int32_t& count, AOC_VEC_LOC) {                                                              \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::unary_count(aoc::vec::Call{#NAME, loc}, aoc::vec::lane::NAME<T>{scalarValue}, dst, src, count);        \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                   const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,           \
                   AOC_VEC_LOC) {                                                                                    \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::unary_level0(aoc::vec::Call{#NAME, loc}, aoc::vec::lane::NAME<T>{scalarValue}, dst, src,              \
                           aoc::vec::mask_arg<T>(mask), repeatTime, repeatParams, isSetMask);                        \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                   const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,             \
                   AOC_VEC_LOC) {                                                                                    \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::unary_level0(aoc::vec::Call{#NAME, loc}, aoc::vec::lane::NAME<T>{scalarValue}, dst, src,              \
                           aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);                     \
  }                                                                                                                  \
  }

AOC_VEC_SCALAR(Adds, aoc::vec::arith_type<T>, d = aoc::vec::add(a, s))
AOC_VEC_SCALAR(Subs, aoc::vec::arith_type<T>, d = aoc::vec::sub(a, s))
AOC_VEC_SCALAR(Muls, aoc::vec::arith_type<T>, d = aoc::vec::mul(a, s))
AOC_VEC_SCALAR(Divs, aoc::vec::float_type<T>, d = aoc::vec::div(a, s))
AOC_VEC_SCALAR(Maxs, aoc::vec::arith_type<T>, d = aoc::vec::max(a, s))
AOC_VEC_SCALAR(Mins, aoc::vec::arith_type<T>, d = aoc::vec::min(a, s))
AOC_VEC_SCALAR(Ands, aoc::vec::bit_type<T>, d = static_cast<T>(a & s))
AOC_VEC_SCALAR(Ors, aoc::vec::bit_type<T>, d = static_cast<T>(a | s))
// x >= 0 ? x : x * slope (NaN passes through)
AOC_VEC_SCALAR(LeakyRelu, aoc::vec::float_type<T>,
               d = (aoc::vec::is_nan(a) || float(a) >= 0.0f) ? a : aoc::vec::mul(a, s))
AOC_VEC_SCALAR(ShiftLeft, aoc::vec::bit_type<T>, d = aoc::vec::shift_left(a, int64_t(s)))
AOC_VEC_SCALAR(ShiftRight, aoc::vec::bit_type<T>, d = aoc::vec::shift_right(a, int64_t(s), round))

namespace AscendC {
// Level-0 ShiftRight with rounding: adds half of the last shifted-out unit first.
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue,
                       const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                       bool roundEn, AOC_VEC_LOC) {
  static_assert(aoc::vec::bit_type<T>, "ShiftRight: unsupported element type");
  aoc::vec::unary_level0(aoc::vec::Call{"ShiftRight", loc}, aoc::vec::lane::ShiftRight<T>{scalarValue, roundEn}, dst,
                         src, aoc::vec::mask_arg<T>(mask), repeatTime, repeatParams, isSetMask);
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue,
                       const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                       bool roundEn, AOC_VEC_LOC) {
  static_assert(aoc::vec::bit_type<T>, "ShiftRight: unsupported element type");
  aoc::vec::unary_level0(aoc::vec::Call{"ShiftRight", loc}, aoc::vec::lane::ShiftRight<T>{scalarValue, roundEn}, dst,
                         src, aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);
}
}  // namespace AscendC
