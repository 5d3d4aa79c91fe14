// IEEE binary16 (half) and bfloat16 value types with round-to-nearest-even
// conversions. Arithmetic goes through float (the implicit conversion), and the
// result is rounded back when assigned, which is what the vector unit does per
// instruction. A conversion is one instruction on the device, so in kernel code it is
// API work (AOC_API_UNCOUNTED: no scalar blocks, and no entry/exit hooks per element). The
// conversions are noexcept: a call that may throw ends the caller's basic block, and the
// kernel around it would count one block more per conversion. They use __builtin_bit_cast, not
// std::bit_cast: a standard library function is not inlined into an uncounted one, and its
// blocks, run outside any hooked API function, would count as kernel work.
#pragma once
#include <cstdint>
#include <limits>

#include "aoc/math_fn.h"
#include "aoc/instrumentation.h"

namespace aoc {

AOC_FORCE_INLINE constexpr uint16_t float_to_half_bits(float f) {
  const uint32_t x = __builtin_bit_cast(uint32_t, f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {  // inf or NaN; NaN stays quiet and keeps high payload bits
    if (ax > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    return static_cast<uint16_t>(sign | 0x7c00u);
  }
  if (ax >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
  if (ax < 0x38800000u) {  // below 2^-14: half subnormal (or zero)
    // value = m * 2^(e-150) with the implicit bit; in units of 2^-24 that is m >> (126 - e),
    // rounded to nearest even on the bits shifted out.
    const uint32_t e = ax >> 23;
    if (e < 102u) return static_cast<uint16_t>(sign);  // below half the smallest subnormal
    const uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - e;
    uint32_t h = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u);
    const uint32_t tie = 1u << (shift - 1u);
    if (rem > tie || (rem == tie && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  const uint32_t mant = ax & 0x7fffffu;
  const uint32_t exp = (ax >> 23) - 127u + 15u;
  uint32_t h = (exp << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  // Round to nearest even; the carry may ripple into the exponent. Written without branches:
  // on random data a branch here mispredicts half the time.
  h += static_cast<uint32_t>(rem > 0x1000u) | (static_cast<uint32_t>(rem == 0x1000u) & h & 1u);
  return static_cast<uint16_t>(sign | h);
}

AOC_FORCE_INLINE constexpr float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = static_cast<float>(mant) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  if (exp == 31) return __builtin_bit_cast(float, sign | 0x7f800000u | (mant << 13));
  return __builtin_bit_cast(float, sign | ((exp - 15u + 127u) << 23) | (mant << 13));
}

AOC_FORCE_INLINE constexpr uint16_t float_to_bf16_bits(float f) {
  const uint32_t x = __builtin_bit_cast(uint32_t, f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  const uint32_t rounded = x + 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(rounded >> 16);
}

AOC_FORCE_INLINE constexpr float bf16_bits_to_float(uint16_t b) {
  return __builtin_bit_cast(float, static_cast<uint32_t>(b) << 16);
}

// Rounds a double to float such that a later rounding to a narrower format
// (half or bfloat16) gives the same result as rounding the double directly:
// an inexact conversion that lands exactly on a float is nudged one ulp toward
// the true value, so it can never sit on a narrower format's tie point by accident.
AOC_FORCE_INLINE constexpr float double_to_float_sticky(double d) {
  const float f = static_cast<float>(d);
  const uint32_t bits = __builtin_bit_cast(uint32_t, f);
  const bool finite = (bits & 0x7f800000u) != 0x7f800000u;
  const bool nudge = finite & (static_cast<double>(f) != d) & ((bits & 1u) == 0u);
  // Step one ulp away from zero when |d| > |f|, toward zero otherwise (sign-magnitude bits).
  // Branch-free, like the rounding above: input generation converts every element.
  const bool grow = (d < 0 ? -d : d) > static_cast<double>(f < 0 ? -f : f);
  return __builtin_bit_cast(float, bits + static_cast<uint32_t>(nudge) * (static_cast<uint32_t>(grow) * 2u - 1u));
}

}  // namespace aoc

struct half {
  uint16_t bits = 0;
  constexpr half() = default;
  AOC_API_UNCOUNTED constexpr half(float f) noexcept : bits(aoc::float_to_half_bits(f)) {}
  AOC_API_UNCOUNTED constexpr half(double d) noexcept : bits(aoc::float_to_half_bits(aoc::double_to_float_sticky(d))) {}
  AOC_API_UNCOUNTED constexpr half(int v) noexcept : half(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr half(unsigned v) noexcept : half(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr half(long v) noexcept : half(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr half(unsigned long v) noexcept : half(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr half(long long v) noexcept : half(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr half(unsigned long long v) noexcept : half(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr half(short v) noexcept : half(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr half(unsigned short v) noexcept : half(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr half(signed char v) noexcept : half(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr half(unsigned char v) noexcept : half(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr half(bool v) noexcept : half(v ? 1.0f : 0.0f) {}
  static constexpr half from_bits(uint16_t b) { half h; h.bits = b; return h; }
  AOC_API_UNCOUNTED constexpr operator float() const noexcept { return aoc::half_bits_to_float(bits); }
  half& operator+=(float o) { return *this = half(float(*this) + o); }
  half& operator-=(float o) { return *this = half(float(*this) - o); }
  half& operator*=(float o) { return *this = half(float(*this) * o); }
  half& operator/=(float o) { return *this = half(float(*this) / o); }
  constexpr half operator-() const { return from_bits(static_cast<uint16_t>(bits ^ 0x8000u)); }
  half& operator++() { return *this += 1.0f; }
  half& operator--() { return *this -= 1.0f; }
};

struct bfloat16_t {
  uint16_t bits = 0;
  constexpr bfloat16_t() = default;
  AOC_API_UNCOUNTED constexpr bfloat16_t(float f) noexcept : bits(aoc::float_to_bf16_bits(f)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(double d) noexcept : bits(aoc::float_to_bf16_bits(aoc::double_to_float_sticky(d))) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(int v) noexcept : bfloat16_t(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(unsigned v) noexcept : bfloat16_t(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(long v) noexcept : bfloat16_t(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(unsigned long v) noexcept : bfloat16_t(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(long long v) noexcept : bfloat16_t(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(unsigned long long v) noexcept : bfloat16_t(static_cast<double>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(short v) noexcept : bfloat16_t(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(unsigned short v) noexcept : bfloat16_t(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(signed char v) noexcept : bfloat16_t(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(unsigned char v) noexcept : bfloat16_t(static_cast<float>(v)) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(bool v) noexcept : bfloat16_t(v ? 1.0f : 0.0f) {}
  AOC_API_UNCOUNTED constexpr bfloat16_t(half h) noexcept : bfloat16_t(static_cast<float>(h)) {}
  static constexpr bfloat16_t from_bits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }
  AOC_API_UNCOUNTED constexpr operator float() const noexcept { return aoc::bf16_bits_to_float(bits); }
  bfloat16_t& operator+=(float o) { return *this = bfloat16_t(float(*this) + o); }
  bfloat16_t& operator-=(float o) { return *this = bfloat16_t(float(*this) - o); }
  bfloat16_t& operator*=(float o) { return *this = bfloat16_t(float(*this) * o); }
  bfloat16_t& operator/=(float o) { return *this = bfloat16_t(float(*this) / o); }
  constexpr bfloat16_t operator-() const { return from_bits(static_cast<uint16_t>(bits ^ 0x8000u)); }
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);

// Device type names kernels also use.
using float16_t = half;
using float32_t = float;

namespace std {
template <> struct numeric_limits<half> : numeric_limits<float> {
  static half max() noexcept { return half::from_bits(0x7bff); }
  static half lowest() noexcept { return half::from_bits(0xfbff); }
  static half min() noexcept { return half::from_bits(0x0400); }
  static half infinity() noexcept { return half::from_bits(0x7c00); }
  static half quiet_NaN() noexcept { return half::from_bits(0x7e00); }
  static half epsilon() noexcept { return half::from_bits(0x1400); }
  static constexpr int digits = 11;
};
template <> struct numeric_limits<bfloat16_t> : numeric_limits<float> {
  static bfloat16_t max() noexcept { return bfloat16_t::from_bits(0x7f7f); }
  static bfloat16_t lowest() noexcept { return bfloat16_t::from_bits(0xff7f); }
  static bfloat16_t min() noexcept { return bfloat16_t::from_bits(0x0080); }
  static bfloat16_t infinity() noexcept { return bfloat16_t::from_bits(0x7f80); }
  static bfloat16_t quiet_NaN() noexcept { return bfloat16_t::from_bits(0x7fc0); }
  static bfloat16_t epsilon() noexcept { return bfloat16_t::from_bits(0x3c00); }
  static constexpr int digits = 8;
};
}  // namespace std

namespace AscendC {
// Scalar conversions of bfloat16_t (kernel scalar code has no bfloat16 arithmetic): ToFloat is
// exact; ToBfloat16 rounds to nearest even, as the type's conversion from float does.
inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
inline bfloat16_t ToBfloat16(const float& f) { return bfloat16_t(f); }
}  // namespace AscendC
