// Cast's fast conversions (aoc/vec/cast.h) give bit for bit what the general path gives: every
// half, bfloat16, int8, uint8 and int16 value widened to float in every mode, and floats of every
// exponent (mantissas at and around the rounding boundaries, and random ones) rounded to half and
// bfloat16 to nearest even.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "base/rng.h"

using AscendC::RoundMode;

namespace {

const RoundMode kModes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT,  RoundMode::CAST_FLOOR,
                            RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};

template <typename T> uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

template <typename TD, typename TS> void expect_same(TS v, RoundMode mode) {
  const TD fast = aoc::vec::convert<TD>(v, mode);
  const TD general = aoc::vec::convert_exactly<TD>(v, mode);
  ASSERT_EQ(bits_of(fast), bits_of(general)) << "source bits 0x" << std::hex << bits_of(v) << " mode " << std::dec
                                             << int(mode);
}

// Floats of every exponent with the mantissas where rounding to `drop` fewer bits decides:
// zero, the smallest and largest, and just below, at and above the halfway point.
std::vector<float> boundary_floats(int drop) {
  std::vector<float> out;
  const uint32_t half_ulp = 1u << (drop - 1);
  const uint32_t mantissas[] = {0,           1,           half_ulp - 1, half_ulp,       half_ulp + 1,
                                3 * half_ulp, 0x7fffffu,  0x7fffffu - half_ulp, (1u << drop) | half_ulp};
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t e = 0; e < 256; ++e)
      for (uint32_t m : mantissas) {
        const uint32_t b = sign | (e << 23) | (m & 0x7fffffu);
        float f;
        std::memcpy(&f, &b, sizeof f);
        out.push_back(f);
      }
  return out;
}

std::vector<float> random_floats(uint64_t seed, size_t n) {
  aoc::base::Xoshiro256 rng(seed);
  std::vector<float> out(n);
  for (float& f : out) {
    const uint32_t b = static_cast<uint32_t>(rng.next() >> 32);
    std::memcpy(&f, &b, sizeof f);
  }
  return out;
}

}  // namespace

TEST(CastFastPath, WideningToFloatIsExactInEveryMode) {
  for (RoundMode m : kModes) {
    for (uint32_t b = 0; b < 0x10000u; ++b) {
      expect_same<float>(half::from_bits(static_cast<uint16_t>(b)), m);
      expect_same<float>(bfloat16_t::from_bits(static_cast<uint16_t>(b)), m);
      expect_same<float>(static_cast<int16_t>(b), m);
    }
    for (int v = -128; v < 256; ++v) {
      if (v < 128) expect_same<float>(static_cast<int8_t>(v), m);
      if (v >= 0) expect_same<float>(static_cast<uint8_t>(v), m);
    }
  }
}

TEST(CastFastPath, FloatToHalfAndBfloat16ToNearestEven) {
  std::vector<float> to_half = boundary_floats(13), to_bf16 = boundary_floats(16);
  const std::vector<float> random = random_floats(0xca57, 1 << 20);
  to_half.insert(to_half.end(), random.begin(), random.end());
  to_bf16.insert(to_bf16.end(), random.begin(), random.end());
  // Around half's subnormal range every mantissa bit decides: all of them for a few exponents.
  for (uint32_t e = 101; e <= 113; e += 3)
    for (uint32_t m = 0; m < (1u << 23); m += 7) {
      const uint32_t b = (e << 23) | m;
      float f;
      std::memcpy(&f, &b, sizeof f);
      to_half.push_back(f);
    }
  for (RoundMode m : {RoundMode::CAST_RINT, RoundMode::CAST_NONE}) {
    for (float f : to_half) expect_same<half>(f, m);
    for (float f : to_bf16) expect_same<bfloat16_t>(f, m);
  }
}
