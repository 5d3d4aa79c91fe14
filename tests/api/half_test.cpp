// half / bfloat16_t conversions against an independent reference: exhaustive over
// all 65536 bit patterns for half -> float -> half, and exact-decimal checks of
// rounding, overflow, subnormals and NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernel_operator.h"

namespace {

// Reference: decode a half bit pattern with plain arithmetic (no bit tricks).
double ref_half_value(uint16_t b) {
  int sign = (b >> 15) ? -1 : 1;
  int exp = (b >> 10) & 0x1f;
  int mant = b & 0x3ff;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + mant, exp - 25);
}

// Reference rounding: pick the nearest half by searching all finite patterns of the same sign.
uint16_t ref_round_to_half(double v) {
  if (std::isnan(v)) return 0x7e00;
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (a >= 65520.0) return sign | 0x7c00;
  uint16_t best = 0;
  double best_err = INFINITY;
  for (uint32_t m = 0; m < 0x7c00; ++m) {
    double err = std::fabs(ref_half_value(static_cast<uint16_t>(m)) - a);
    if (err < best_err || (err == best_err && (m & 1) == 0)) {
      best_err = err;
      best = static_cast<uint16_t>(m);
    }
  }
  return sign | best;
}

}  // namespace

TEST(Half, RoundTripAllPatterns) {
  for (uint32_t b = 0; b < 65536; ++b) {
    half h = half::from_bits(static_cast<uint16_t>(b));
    float f = h;
    double ref = ref_half_value(static_cast<uint16_t>(b));
    if (std::isnan(ref)) {
      EXPECT_TRUE(std::isnan(f)) << b;
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), ref) << b;
    EXPECT_EQ(half(f).bits, b) << b;
  }
}

TEST(Half, RoundsToNearestEven) {
  const double cases[] = {1.0 + 1.0 / 2048, 1.0 + 3.0 / 2048, 65504.0, 65519.9, 65520.0, 1e-8, 3e-8,
                          5.960464477539063e-08, 2.98023223876953125e-08, 2.9802322387695314e-08,
                          6.103515625e-05, 6.1e-05, -0.1, 0.1, 1234.5678, -3.14159, 1.00048828125};
  for (double v : cases) {
    EXPECT_EQ(half(v).bits, ref_round_to_half(v)) << v;
    EXPECT_EQ(half(static_cast<float>(v)).bits, ref_round_to_half(static_cast<float>(v))) << v;
  }
}

TEST(Half, DoubleConvertsWithoutDoubleRounding) {
  // 1 + 2^-11 + 2^-40 is just above a half tie: direct rounding goes up, while
  // rounding to float first would land on the tie and then round to even (down).
  double v = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(half(v).bits, ref_round_to_half(v));
  EXPECT_EQ(half(v).bits, 0x3c01);
}

TEST(Half, OverflowInfAndNaN) {
  EXPECT_EQ(half(70000.0f).bits, 0x7c00);
  EXPECT_EQ(half(-70000.0f).bits, 0xfc00);
  EXPECT_EQ(half(INFINITY).bits, 0x7c00);
  EXPECT_TRUE(std::isnan(static_cast<float>(half(NAN))));
  half a = 60000.0f, b = 10000.0f;
  half c = a + b;  // arithmetic in float, rounded on assignment
  EXPECT_EQ(c.bits, 0x7c00);
}

TEST(BFloat16, RoundingAndSpecials) {
  EXPECT_EQ(bfloat16_t(1.0f).bits, 0x3f80);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: round to even -> 1.
  EXPECT_EQ(bfloat16_t(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);
  // 1 + 3*2^-8 is a tie between 1+2^-7 (odd) and 1+2^-6 (even) -> up.
  EXPECT_EQ(bfloat16_t(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);
  EXPECT_EQ(bfloat16_t(INFINITY).bits, 0x7f80);
  EXPECT_EQ(bfloat16_t(3.4e38f).bits, 0x7f80);  // rounds above max finite
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(NAN))));
  EXPECT_EQ(static_cast<float>(bfloat16_t::from_bits(0x4049)), 3.140625f);
}

// Production kernels declare half constants at namespace scope (constexpr half ONE = 1.0f),
// so conversions must be usable in constant expressions.
constexpr half kOne = 1.0f;
constexpr half kNegTiny = -1e-7;  // double, subnormal in half
static_assert(kOne.bits == 0x3c00);
static_assert(half(65504.0f).bits == 0x7bff);
static_assert(half(65520.0f).bits == 0x7c00);
static_assert(bfloat16_t(1.0f).bits == 0x3f80);
static_assert(static_cast<float>(half::from_bits(0x3555)) > 0.333f);

TEST(Half, ConstexprMatchesRuntime) {
  EXPECT_EQ(kNegTiny.bits, ref_round_to_half(-1e-7));
  // Every subnormal boundary and tie in the half range, through the constexpr path.
  for (uint32_t m = 0; m < 0x400; ++m) {
    double lo = ref_half_value(static_cast<uint16_t>(m));
    double mid = lo + std::ldexp(1.0, -25);
    EXPECT_EQ(half(mid).bits, ref_round_to_half(mid)) << m;
    EXPECT_EQ(half(static_cast<float>(mid)).bits, ref_round_to_half(static_cast<float>(mid))) << m;
  }
}

TEST(BFloat, ScalarConversionsOfTheApi) {
  EXPECT_EQ(AscendC::ToFloat(bfloat16_t(1.5f)), 1.5f);
  EXPECT_EQ(AscendC::ToBfloat16(3.0f).bits, bfloat16_t(3.0f).bits);
  // Halfway between 1 and the next bfloat16 (1 + 2^-7): to the even one, 1.
  EXPECT_EQ(AscendC::ToFloat(AscendC::ToBfloat16(1.00390625f)), 1.0f);
  EXPECT_EQ(AscendC::ToFloat(AscendC::ToBfloat16(1.01171875f)), 1.015625f);  // 1 + 3 * 2^-8: up, to even
}

TEST(TPipeGlobal, GetTPipePtrIsVisibleOutsideTheNamespace) {
  AscendC::TPipe pipe;
  EXPECT_EQ(::GetTPipePtr(), &pipe);
}
