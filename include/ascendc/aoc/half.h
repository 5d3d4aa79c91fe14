// IEEE binary16 (half) and bfloat16 value types with round-to-nearest-even
// conversions. Arithmetic goes through float (the implicit conversion), and the
// result is rounded back when assigned, which is what the vector unit does per
// instruction.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace aoc {

constexpr uint16_t float_to_half_bits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
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
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // carry may ripple into the exponent
  return static_cast<uint16_t>(sign | h);
}

constexpr float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = static_cast<float>(mant) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp - 15u + 127u) << 23) | (mant << 13));
}

constexpr uint16_t float_to_bf16_bits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  const uint32_t rounded = x + 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(rounded >> 16);
}

constexpr float bf16_bits_to_float(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

// Rounds a double to float such that a later rounding to a narrower format
// (half or bfloat16) gives the same result as rounding the double directly:
// an inexact conversion that lands exactly on a float is nudged one ulp toward
// the true value, so it can never sit on a narrower format's tie point by accident.
constexpr float double_to_float_sticky(double d) {
  const float f = static_cast<float>(d);
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const bool finite = (bits & 0x7f800000u) != 0x7f800000u;
  if (finite && static_cast<double>(f) != d && (bits & 1u) == 0u) {
    // Step one ulp away from zero when |d| > |f|, toward zero otherwise (sign-magnitude bits).
    const bool grow = (d < 0 ? -d : d) > static_cast<double>(f < 0 ? -f : f);
    return std::bit_cast<float>(grow ? bits + 1u : bits - 1u);
  }
  return f;
}

}  // namespace aoc

struct half {
  uint16_t bits = 0;
  constexpr half() = default;
  constexpr half(float f) : bits(aoc::float_to_half_bits(f)) {}
  constexpr half(double d) : bits(aoc::float_to_half_bits(aoc::double_to_float_sticky(d))) {}
  constexpr half(int v) : half(static_cast<double>(v)) {}
  constexpr half(unsigned v) : half(static_cast<double>(v)) {}
  constexpr half(long v) : half(static_cast<double>(v)) {}
  constexpr half(unsigned long v) : half(static_cast<double>(v)) {}
  constexpr half(long long v) : half(static_cast<double>(v)) {}
  constexpr half(unsigned long long v) : half(static_cast<double>(v)) {}
  constexpr half(short v) : half(static_cast<float>(v)) {}
  constexpr half(unsigned short v) : half(static_cast<float>(v)) {}
  constexpr half(signed char v) : half(static_cast<float>(v)) {}
  constexpr half(unsigned char v) : half(static_cast<float>(v)) {}
  constexpr half(bool v) : half(v ? 1.0f : 0.0f) {}
  static constexpr half from_bits(uint16_t b) { half h; h.bits = b; return h; }
  constexpr operator float() const { return aoc::half_bits_to_float(bits); }
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
  constexpr bfloat16_t(float f) : bits(aoc::float_to_bf16_bits(f)) {}
  constexpr bfloat16_t(double d) : bits(aoc::float_to_bf16_bits(aoc::double_to_float_sticky(d))) {}
  constexpr bfloat16_t(int v) : bfloat16_t(static_cast<double>(v)) {}
  constexpr bfloat16_t(unsigned v) : bfloat16_t(static_cast<double>(v)) {}
  constexpr bfloat16_t(long v) : bfloat16_t(static_cast<double>(v)) {}
  constexpr bfloat16_t(unsigned long v) : bfloat16_t(static_cast<double>(v)) {}
  constexpr bfloat16_t(long long v) : bfloat16_t(static_cast<double>(v)) {}
  constexpr bfloat16_t(unsigned long long v) : bfloat16_t(static_cast<double>(v)) {}
  constexpr bfloat16_t(short v) : bfloat16_t(static_cast<float>(v)) {}
  constexpr bfloat16_t(unsigned short v) : bfloat16_t(static_cast<float>(v)) {}
  constexpr bfloat16_t(signed char v) : bfloat16_t(static_cast<float>(v)) {}
  constexpr bfloat16_t(unsigned char v) : bfloat16_t(static_cast<float>(v)) {}
  constexpr bfloat16_t(bool v) : bfloat16_t(v ? 1.0f : 0.0f) {}
  constexpr bfloat16_t(half h) : bfloat16_t(static_cast<float>(h)) {}
  static constexpr bfloat16_t from_bits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }
  constexpr operator float() const { return aoc::bf16_bits_to_float(bits); }
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
