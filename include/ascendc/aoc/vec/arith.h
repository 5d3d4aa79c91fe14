// Per-lane arithmetic as the vector unit does it: half and bfloat16 are computed in
// float and rounded back to the element type per instruction (so fp16 overflow gives
// inf); integer add/sub/mul wrap modulo 2^n; NaN propagates through every float op,
// including Max/Min (if either input is NaN the result is NaN). Everything here runs per lane,
// so it is forced inline into the uncounted lane loops (aoc/instrumentation.h).
#pragma once
#include <cstdint>
#include <type_traits>

#include "aoc/math_fn.h"
#include "aoc/half.h"
#include "aoc/instrumentation.h"

namespace aoc::vec {

template <typename T> constexpr bool is_half_like = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <typename T> constexpr bool is_float_like = is_half_like<T> || std::is_same_v<T, float>;
template <typename T> constexpr bool is_int = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T> constexpr bool is_one_of_impl() { return false; }
template <typename T, typename A, typename... R> constexpr bool is_one_of_impl() {
  return std::is_same_v<T, A> || is_one_of_impl<T, R...>();
}
template <typename T, typename... Ts> constexpr bool one_of = is_one_of_impl<T, Ts...>();

// Type sets of the A2 vector unit.
template <typename T> constexpr bool arith_type = one_of<T, half, bfloat16_t, float, int16_t, int32_t>;
template <typename T> constexpr bool float_type = one_of<T, half, float>;
template <typename T> constexpr bool bit_type = one_of<T, int16_t, uint16_t, int32_t, uint32_t>;
template <typename T> constexpr bool b16_b32 = sizeof(T) == 2 || sizeof(T) == 4;

// Value used for computing one lane: float for half/bfloat16, the type itself otherwise.
template <typename T> using calc_t = std::conditional_t<is_half_like<T>, float, T>;
template <typename T> AOC_FORCE_INLINE calc_t<T> up(T v) { return static_cast<calc_t<T>>(v); }

template <typename T> AOC_FORCE_INLINE T wrap(int64_t v) { return static_cast<T>(static_cast<uint64_t>(v)); }

template <typename T> AOC_FORCE_INLINE T add(T a, T b) {
  if constexpr (is_float_like<T>) return T(up(a) + up(b));
  else return wrap<T>(int64_t(a) + int64_t(b));
}
template <typename T> AOC_FORCE_INLINE T sub(T a, T b) {
  if constexpr (is_float_like<T>) return T(up(a) - up(b));
  else return wrap<T>(int64_t(a) - int64_t(b));
}
template <typename T> AOC_FORCE_INLINE T mul(T a, T b) {
  if constexpr (is_float_like<T>) return T(up(a) * up(b));
  else return wrap<T>(static_cast<int64_t>(static_cast<uint64_t>(int64_t(a)) * static_cast<uint64_t>(int64_t(b))));
}
template <typename T> AOC_FORCE_INLINE T div(T a, T b) {
  if constexpr (is_float_like<T>) return T(up(a) / up(b));
  else return b == 0 ? T(0) : T(a / b);
}
template <typename T> AOC_FORCE_INLINE bool is_nan(T v) {
  if constexpr (is_float_like<T>) return aoc::fn::isnan(up(v));
  else return false;
}
template <typename T> AOC_FORCE_INLINE T max(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return up(a) >= up(b) ? a : b;
}
template <typename T> AOC_FORCE_INLINE T min(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return up(a) <= up(b) ? a : b;
}
template <typename T> AOC_FORCE_INLINE T relu(T a) {
  if (is_nan(a)) return a;
  return up(a) > calc_t<T>(0) ? a : T(0);
}
template <typename T> AOC_FORCE_INLINE T abs(T a) {
  if constexpr (is_float_like<T>) return T(aoc::fn::fabs(up(a)));
  else return a < 0 ? wrap<T>(-int64_t(a)) : a;
}
template <typename T> AOC_FORCE_INLINE T neg(T a) {
  if constexpr (is_float_like<T>) return T(-up(a));
  else return wrap<T>(-int64_t(a));
}

}  // namespace aoc::vec
