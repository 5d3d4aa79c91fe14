// Tensor-tensor instructions: dst = f(src0, src1) lane by lane, in both call forms.
// Fused multiply-adds round once: the exact product and sum are formed in double
// (float lanes use std::fma) and rounded to the element type.
#pragma once
#include <cstdint>

#include "aoc/math_fn.h"
#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

template <typename T> AOC_FORCE_INLINE T fused_mul_add(T a, T b, T c) {
  if constexpr (std::is_same_v<T, float>) return aoc::fn::fma(a, b, c);
  else if constexpr (is_half_like<T>) return T(double(float(a)) * double(float(b)) + double(float(c)));
  else return add(mul(a, b), c);
}

}  // namespace aoc::vec

// Defines the count form and both level-0 forms (mask bits / mask count) of a binary
// instruction. LANE is a statement over `T& d, const T& a, const T& b`.
#define AOC_VEC_BINARY(NAME, READS_DST, TYPE_OK, LANE)                                                               \
  namespace aoc::vec::lane {                                                                                         \
  struct NAME {                                                                                                      \
    template <typename T> AOC_FORCE_INLINE void operator()(T& d, const T& a, const T& b) const { LANE; }             \
  };                                                                                                                 \
  }                                                                                                                  \
  namespace AscendC {                                                                                                \
  template <typename T>                                                                                              \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,                \
                   const int32_t& count, AOC_VEC_LOC) {                                                              \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::binary_count(aoc::vec::Call{#NAME, loc, READS_DST}, aoc::vec::lane::NAME{}, dst, src0, src1, count);   \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,                \
                   const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,          \
                   AOC_VEC_LOC) {                                                                                    \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::binary_level0(aoc::vec::Call{#NAME, loc, READS_DST}, aoc::vec::lane::NAME{}, dst, src0, src1,          \
                            aoc::vec::mask_arg<T>(mask), repeatTime, repeatParams, isSetMask);                       \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,                \
                   const uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,            \
                   AOC_VEC_LOC) {                                                                                    \
    static_assert(TYPE_OK, #NAME ": unsupported element type");                                                      \
    aoc::vec::binary_level0(aoc::vec::Call{#NAME, loc, READS_DST}, aoc::vec::lane::NAME{}, dst, src0, src1,          \
                            aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);                    \
  }                                                                                                                  \
  }

AOC_VEC_BINARY(Add, false, aoc::vec::arith_type<T>, d = aoc::vec::add(a, b))
AOC_VEC_BINARY(Sub, false, aoc::vec::arith_type<T>, d = aoc::vec::sub(a, b))
AOC_VEC_BINARY(Mul, false, aoc::vec::arith_type<T>, d = aoc::vec::mul(a, b))
AOC_VEC_BINARY(Div, false, aoc::vec::float_type<T>, d = aoc::vec::div(a, b))
AOC_VEC_BINARY(Max, false, aoc::vec::arith_type<T>, d = aoc::vec::max(a, b))
AOC_VEC_BINARY(Min, false, aoc::vec::arith_type<T>, d = aoc::vec::min(a, b))
AOC_VEC_BINARY(And, false, aoc::vec::bit_type<T>, d = static_cast<T>(a & b))
AOC_VEC_BINARY(Or, false, aoc::vec::bit_type<T>, d = static_cast<T>(a | b))
AOC_VEC_BINARY(AddRelu, false, (aoc::vec::one_of<T, half, float, int16_t>), d = aoc::vec::relu(aoc::vec::add(a, b)))
AOC_VEC_BINARY(SubRelu, false, (aoc::vec::one_of<T, half, float, int16_t>), d = aoc::vec::relu(aoc::vec::sub(a, b)))
// dst = src0 * dst + src1
AOC_VEC_BINARY(FusedMulAdd, true, aoc::vec::float_type<T>, d = aoc::vec::fused_mul_add(a, d, b))
AOC_VEC_BINARY(FusedMulAddRelu, true, aoc::vec::float_type<T>, d = aoc::vec::relu(aoc::vec::fused_mul_add(a, d, b)))
AOC_VEC_BINARY(MulAddRelu, true, aoc::vec::float_type<T>, d = aoc::vec::relu(aoc::vec::fused_mul_add(a, d, b)))
// dst = src0 >= 0 ? src0 : src0 * src1 (per-lane slope)
AOC_VEC_BINARY(Prelu, false, aoc::vec::float_type<T>,
               d = (aoc::vec::is_nan(a) || float(a) >= 0.0f) ? a : aoc::vec::mul(a, b))
AOC_VEC_BINARY(AbsSub, false, aoc::vec::float_type<T>, d = aoc::vec::abs(aoc::vec::sub(a, b)))

// MulAddDst: dst = src0 * src1 + dst, with float dst and half sources allowed.
namespace aoc::vec::lane {
struct MulAddDst {
  template <typename TD, typename TS> AOC_FORCE_INLINE void operator()(TD& d, const TS& a, const TS& b) const {
    if constexpr (std::is_same_v<TD, TS>) d = fused_mul_add(a, b, d);
    else d = TD(aoc::fn::fma(float(a), float(b), float(d)));  // half * half is exact in float
  }
};
}  // namespace aoc::vec::lane

namespace AscendC {
template <typename T, typename U> constexpr bool aoc_mul_add_dst_ok =
    (std::is_same_v<T, U> && aoc::vec::float_type<T>) || (std::is_same_v<T, float> && std::is_same_v<U, half>);

template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, AOC_VEC_LOC) {
  static_assert(aoc_mul_add_dst_ok<T, U>, "MulAddDst: supported (dst, src) types are (half, half), (float, float), "
                                          "(float, half)");
  aoc::vec::binary_count(aoc::vec::Call{"MulAddDst", loc, true}, aoc::vec::lane::MulAddDst{}, dst, src0, src1, count);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                      AOC_VEC_LOC) {
  static_assert(aoc_mul_add_dst_ok<T, U>, "MulAddDst: unsupported type pair");
  aoc::vec::binary_level0(aoc::vec::Call{"MulAddDst", loc, true}, aoc::vec::lane::MulAddDst{}, dst, src0, src1,
                          aoc::vec::mask_arg<T>(mask), repeatTime, repeatParams, isSetMask);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                      AOC_VEC_LOC) {
  static_assert(aoc_mul_add_dst_ok<T, U>, "MulAddDst: unsupported type pair");
  aoc::vec::binary_level0(aoc::vec::Call{"MulAddDst", loc, true}, aoc::vec::lane::MulAddDst{}, dst, src0, src1,
                          aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);
}
}  // namespace AscendC
