// Cast<T, U>(dst, src, RoundMode, ...): element type conversion with every round mode.
// The source value is taken exactly (long double holds every int64/float/half value)
// and rounded once into the destination format:
// - float destinations (float/half/bfloat16): IEEE directed rounding; overflow gives
//   inf for the nearest modes, the largest finite value where the direction points
//   toward zero (TRUNC, FLOOR of a positive value, CEIL of a negative one, ODD);
//   NaN stays NaN, inf stays inf.
// - integer destinations: rounded then saturated to the type's range; inf saturates,
//   NaN converts to 0.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "aoc/math_fn.h"
#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

// Rounds v to an integer value in the given mode (CAST_NONE behaves as CAST_RINT).
AOC_API_UNCOUNTED inline long double round_integral(long double v, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  const long double f = aoc::fn::floor(v);
  const long double frac = v - f;
  switch (mode) {
    case RoundMode::CAST_FLOOR: return f;
    case RoundMode::CAST_CEIL: return aoc::fn::ceil(v);
    case RoundMode::CAST_TRUNC: return aoc::fn::trunc(v);
    case RoundMode::CAST_ROUND:
      if (frac == 0.5L) return v < 0 ? f : f + 1;  // tie: away from zero
      return frac < 0.5L ? f : f + 1;
    case RoundMode::CAST_ODD:
      if (frac == 0) return f;
      return aoc::fn::fmod(f, 2.0L) != 0 ? f : f + 1;  // inexact: pick the odd neighbour
    case RoundMode::CAST_NONE:
    case RoundMode::CAST_RINT:
    default:
      if (frac == 0.5L) return aoc::fn::fmod(f, 2.0L) == 0 ? f : f + 1;  // tie: even
      return frac < 0.5L ? f : f + 1;
  }
}

template <typename T> struct float_format;
template <> struct float_format<float> {
  static constexpr int mant_bits = 23, min_exp = -126;
  static constexpr long double max_finite() { return std::numeric_limits<float>::max(); }
};
template <> struct float_format<half> {
  static constexpr int mant_bits = 10, min_exp = -14;
  static constexpr long double max_finite() { return 65504.0L; }
};
template <> struct float_format<bfloat16_t> {
  static constexpr int mant_bits = 7, min_exp = -126;
  static constexpr long double max_finite() { return static_cast<float>(bfloat16_t::from_bits(0x7f7f)); }
};

// Rounds v to the nearest value of format T in `mode` (result still a long double).
template <typename T> AOC_API_UNCOUNTED long double round_to_format(long double v, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  using F = float_format<T>;
  if (aoc::fn::isnan(v) || aoc::fn::isinf(v) || v == 0) return v;
  int e = 0;
  aoc::fn::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
  const int lead = e - 1 > F::min_exp ? e - 1 : F::min_exp;
  const int quantum = lead - F::mant_bits;
  const long double r = aoc::fn::ldexp(round_integral(aoc::fn::ldexp(v, -quantum), mode), quantum);
  if (aoc::fn::fabs(r) <= F::max_finite()) return r;
  const bool pos = v > 0;
  const long double inf = std::numeric_limits<long double>::infinity();
  switch (mode) {
    case RoundMode::CAST_TRUNC:
    case RoundMode::CAST_ODD: return pos ? F::max_finite() : -F::max_finite();
    case RoundMode::CAST_FLOOR: return pos ? F::max_finite() : -inf;
    case RoundMode::CAST_CEIL: return pos ? inf : -F::max_finite();
    default: return pos ? inf : -inf;
  }
}

template <typename T> AOC_FORCE_INLINE long double exact_value(T v) {
  if constexpr (is_float_like<T>) return static_cast<long double>(static_cast<float>(v));
  else return static_cast<long double>(v);
}

// Conversions that need no long double arithmetic (which costs libm calls per element). A
// widening one is exact in every mode. float -> half or bfloat16 to nearest even is what the
// value types' own conversions do (aoc/half.h), with the same overflow to infinity, subnormal
// results and quiet NaNs. tests/vec/cast_fast_path_test.cpp holds both to the general path.
template <typename TD, typename TS> constexpr bool exact_widening =
    std::is_same_v<TD, float> && one_of<TS, half, bfloat16_t, int8_t, uint8_t, int16_t>;
template <typename TD, typename TS> constexpr bool nearest_even_by_value_type =
    std::is_same_v<TS, float> && one_of<TD, half, bfloat16_t>;

// The general path: the source value taken exactly and rounded once in `mode`.
template <typename TD, typename TS> AOC_API_UNCOUNTED TD convert_exactly(TS v, AscendC::RoundMode mode);

template <typename TD, typename TS> AOC_FORCE_INLINE TD convert(TS v, AscendC::RoundMode mode) {
  if constexpr (exact_widening<TD, TS>) {
    // A signalling NaN comes out quiet, as through the general path's long double.
    const float f = static_cast<float>(v);
    return f == f ? f : __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, f) | 0x400000u);
  } else if constexpr (nearest_even_by_value_type<TD, TS>) {
    if (mode != AscendC::RoundMode::CAST_RINT && mode != AscendC::RoundMode::CAST_NONE)
      return convert_exactly<TD>(v, mode);
    const TD r(v);
    // The general path gives +0 for a negative value that rounds to zero (IEEE would keep -0).
    if ((r.bits & 0x7fffu) == 0 && v != 0.0f) return TD::from_bits(0);
    return r;
  } else {
    return convert_exactly<TD>(v, mode);
  }
}

template <typename TD, typename TS> AOC_API_UNCOUNTED TD convert_exactly(TS v, AscendC::RoundMode mode) {
  const long double x = exact_value(v);
  if constexpr (is_float_like<TD>) {
    // The rounded value is exactly representable in TD, so the narrowing below is exact.
    return TD(static_cast<float>(round_to_format<TD>(x, mode)));
  } else {
    if (aoc::fn::isnan(x)) return TD(0);
    const long double r = round_integral(x, mode);
    constexpr long double lo = static_cast<long double>(std::numeric_limits<TD>::min());
    constexpr long double hi = static_cast<long double>(std::numeric_limits<TD>::max());
    if (r <= lo) return std::numeric_limits<TD>::min();
    if (r >= hi) return std::numeric_limits<TD>::max();
    return static_cast<TD>(r);
  }
}

template <typename T> constexpr bool cast_type =
    one_of<T, half, bfloat16_t, float, int8_t, uint8_t, int16_t, int32_t, int64_t>;

// int32 -> half goes through the dequantisation unit on the device: the value is multiplied by
// the DEQSCALE register (SetDeqScale(half)) before the conversion.
template <typename TD, typename TS> constexpr bool dequantising = std::is_same_v<TD, half> && std::is_same_v<TS, int32_t>;

template <typename TD, typename TS> struct CastLane {
  AscendC::RoundMode mode;
  float deq_scale = dequantising<TD, TS> ? core().deq_scale : 1.0f;
  AOC_FORCE_INLINE void operator()(TD& d, const TS& s) const {
    if constexpr (std::is_same_v<TD, TS>) {
      // float -> float rounds to an integral value in the mode; CAST_NONE copies.
      if (mode == AscendC::RoundMode::CAST_NONE || aoc::fn::isnan(s) || aoc::fn::isinf(s)) d = s;
      else d = static_cast<TD>(round_integral(static_cast<long double>(s), mode));
    } else if constexpr (dequantising<TD, TS>) {
      d = TD(static_cast<float>(round_to_format<TD>(static_cast<long double>(s) * deq_scale, mode)));
    } else {
      d = convert<TD>(s, mode);
    }
  }
};

template <typename TD, typename TS> void check_cast(AscendC::RoundMode mode, const std::source_location& loc) {
  constexpr bool float_to_half = std::is_same_v<TS, float> && std::is_same_v<TD, half>;
  aoc::check(mode != AscendC::RoundMode::CAST_ODD || float_to_half, "Cast", loc,
             "CAST_ODD is only supported for float -> half");
}

}  // namespace aoc::vec

namespace AscendC {

// Same-type casts exist for float only: rounding to integral values (CAST_RINT, CAST_FLOOR ...).
template <typename T, typename U> constexpr bool aoc_cast_ok =
    aoc::vec::cast_type<T> && aoc::vec::cast_type<U> && (!std::is_same_v<T, U> || std::is_same_v<T, float>);

template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint32_t count, AOC_VEC_LOC) {
  static_assert(aoc_cast_ok<T, U>, "Cast: unsupported (dst, src) type pair");
  aoc::vec::check_cast<T, U>(roundMode, loc);
  aoc::vec::unary_count(aoc::vec::Call{"Cast", loc}, aoc::vec::CastLane<T, U>{roundMode}, dst, src, count);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  static_assert(aoc_cast_ok<T, U>, "Cast: unsupported (dst, src) type pair");
  aoc::vec::check_cast<T, U>(roundMode, loc);
  constexpr size_t wide = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  const aoc::vec::MaskArg m = wide <= 2 ? aoc::vec::MaskArg::bits(mask) : aoc::vec::MaskArg::bits_low(mask);
  aoc::vec::unary_level0(aoc::vec::Call{"Cast", loc}, aoc::vec::CastLane<T, U>{roundMode}, dst, src, m, repeatTime,
                         repeatParams, isSetMask);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  static_assert(aoc_cast_ok<T, U>, "Cast: unsupported (dst, src) type pair");
  aoc::vec::check_cast<T, U>(roundMode, loc);
  aoc::vec::unary_level0(aoc::vec::Call{"Cast", loc}, aoc::vec::CastLane<T, U>{roundMode}, dst, src,
                         aoc::vec::MaskArg::count(mask), repeatTime, repeatParams, isSetMask);
}

// DEQSCALE register: the scale of int32 -> half conversions (Cast, AddDeqRelu).
inline void SetDeqScale(half scale) { aoc::core().deq_scale = static_cast<float>(scale); }
// The CastDeq form (int16 input): scale, a 9-bit offset and whether the result is signed.
inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
  aoc::CoreState& c = aoc::core();
  c.deq_scale = scale;
  c.deq_offset = static_cast<int16_t>(offset & 0x1ff);
  c.deq_signed = signMode;
}

}  // namespace AscendC
