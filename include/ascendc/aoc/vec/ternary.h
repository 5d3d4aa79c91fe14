// Axpy: dst = scalar * src + dst, with half sources accumulating into float allowed.
#pragma once
#include <cstdint>
#include <type_traits>

#include "aoc/math_fn.h"
#include "aoc/vec/arith.h"
#include "aoc/vec/binary.h"
#include "aoc/vec/forms.h"

namespace aoc::vec::lane {
template <typename U> struct Axpy {
  U s;
  template <typename T> AOC_FORCE_INLINE void operator()(T& d, const U& a) const {
    if constexpr (std::is_same_v<T, U>) d = fused_mul_add(s, a, d);
    else d = T(aoc::fn::fma(float(s), float(a), float(d)));  // half * half is exact in float
  }
};
}  // namespace aoc::vec::lane

namespace AscendC {
template <typename T, typename U> constexpr bool aoc_axpy_ok =
    (std::is_same_v<T, U> && aoc::vec::float_type<T>) || (std::is_same_v<T, float> && std::is_same_v<U, half>);

template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::type_identity_t<U> scalarValue,
                 const int32_t& count, AOC_VEC_LOC) {
  static_assert(aoc_axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  aoc::vec::unary_count(aoc::vec::Call{"Axpy", loc, true}, aoc::vec::lane::Axpy<U>{scalarValue}, dst, src, count);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::type_identity_t<U> scalarValue,
                 const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  static_assert(aoc_axpy_ok<T, U>, "Axpy: unsupported type pair");
  aoc::vec::unary_level0(aoc::vec::Call{"Axpy", loc, true}, aoc::vec::lane::Axpy<U>{scalarValue}, dst, src,
                         aoc::vec::mask_arg<T>(mask), repeatTime, repeatParams, isSetMask);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::type_identity_t<U> scalarValue,
                 const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  static_assert(aoc_axpy_ok<T, U>, "Axpy: unsupported type pair");
  aoc::vec::unary_level0(aoc::vec::Call{"Axpy", loc, true}, aoc::vec::lane::Axpy<U>{scalarValue}, dst, src,
                         aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);
}
}  // namespace AscendC
