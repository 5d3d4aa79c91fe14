// Seeded input generation and the precision screen.
#include <gtest/gtest.h>

#include <cmath>

#include "base/rng.h"
#include "package/case_inputs.h"
#include "package/compare.h"

using namespace aoc::package;

TEST(Rng, SameSeedSameStreamDifferentSeedDifferent) {
  aoc::base::Xoshiro256 a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
  }
  EXPECT_NE(aoc::base::Xoshiro256(42).next(), c.next());
}

TEST(Rng, UniformStaysInRangeAndCoversIt) {
  aoc::base::Xoshiro256 r(7);
  double lo = 1e9, hi = -1e9, sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double v = r.uniform(-1.0, 1.0);
    ASSERT_GE(v, -1.0);
    ASSERT_LT(v, 1.0);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  EXPECT_LT(lo, -0.999);
  EXPECT_GT(hi, 0.999);
  EXPECT_NEAR(sum / 100000, 0.0, 0.01);
}

TEST(CaseInputs, ValuesAreRoundedToDtypeAndSpecialsInjected) {
  TypedBuffer b(ElemType::F16, 64);
  ValueRange v;
  v.special = {NAN, INFINITY};
  fill_values(b, v, 1);
  EXPECT_TRUE(std::isnan(b.get(0)));
  EXPECT_TRUE(std::isinf(b.get(1)));
  EXPECT_TRUE(std::isnan(b.get(63)));
  EXPECT_TRUE(std::isinf(b.get(62)));
  for (size_t i = 2; i < 62; ++i) {
    EXPECT_EQ(b.get(i), round_to(ElemType::F16, b.get(i)));
    EXPECT_LE(std::fabs(b.get(i)), 1.0);
  }
}

// A uniform range must give bool inputs a seeded mix of both values: with v != 0
// applied to uniform draws every element was true and logical operators saw one value.
TEST(CaseInputs, BoolUniformIsASeededMixOfTrueAndFalse) {
  TypedBuffer a(ElemType::Bool, 4096), b(ElemType::Bool, 4096), c(ElemType::Bool, 4096);
  ValueRange v;  // uniform [-1, 1)
  fill_values(a, v, 11);
  fill_values(b, v, 11);
  fill_values(c, v, 12);
  size_t trues = 0, same_as_other_seed = 0;
  for (size_t i = 0; i < a.count; ++i) {
    const double x = a.get(i);
    ASSERT_TRUE(x == 0.0 || x == 1.0);
    trues += x != 0.0;
    EXPECT_EQ(x, b.get(i)) << "same seed, different value at " << i;
    same_as_other_seed += x == c.get(i);
  }
  EXPECT_GT(trues, 1800u);
  EXPECT_LT(trues, 2300u);
  EXPECT_LT(same_as_other_seed, 2300u);  // another seed draws another mix
}

TEST(CaseInputs, BoolZerosAndConstants) {
  TypedBuffer z(ElemType::Bool, 100), f(ElemType::Bool, 100), t(ElemType::Bool, 100);
  ValueRange zeros;
  zeros.dist = "zeros";
  ValueRange zero_const;
  zero_const.dist = "constant";
  zero_const.value = 0.0;
  ValueRange two = zero_const;
  two.value = 2.0;
  fill_values(z, zeros, 3);
  fill_values(f, zero_const, 3);
  fill_values(t, two, 3);
  for (size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(z.get(i), 0.0);
    EXPECT_EQ(f.get(i), 0.0);
    EXPECT_EQ(t.get(i), 1.0);
  }
}

// Integer inputs are rounded to integers and saturated to the type's range.
TEST(CaseInputs, Int8AndUint8AreRoundedAndSaturated) {
  TypedBuffer s(ElemType::I8, 2000), u(ElemType::U8, 2000);
  ValueRange wide;
  wide.low = -400.0;
  wide.high = 400.0;
  fill_values(s, wide, 5);
  fill_values(u, wide, 5);
  size_t s_lo = 0, s_hi = 0, u_lo = 0, u_hi = 0;
  for (size_t i = 0; i < 2000; ++i) {
    const double x = s.get(i), y = u.get(i);
    ASSERT_EQ(x, std::nearbyint(x));
    ASSERT_EQ(y, std::nearbyint(y));
    ASSERT_GE(x, -128.0);
    ASSERT_LE(x, 127.0);
    ASSERT_GE(y, 0.0);
    ASSERT_LE(y, 255.0);
    s_lo += x == -128.0;
    s_hi += x == 127.0;
    u_lo += y == 0.0;
    u_hi += y == 255.0;
  }
  // About a third of [-400, 400) lies beyond each int8 bound, half below 0 for uint8.
  EXPECT_GT(s_lo, 400u);
  EXPECT_GT(s_hi, 400u);
  EXPECT_GT(u_lo, 800u);
  EXPECT_GT(u_hi, 200u);
}

TEST(Compare, PassesWithinTauAndFailsBeyond) {
  TypedBuffer out(ElemType::F32, 100);
  std::vector<double> ref(100);
  for (size_t i = 0; i < 100; ++i) {
    ref[i] = 1.0 + i;
    out.set(i, ref[i] * (1 + 1e-6));
  }
  auto ok = compare_output(out, ref, 1.0, 0xFF);
  EXPECT_TRUE(ok.pass) << ok.reason;
  out.set(37, ref[37] * 1.01);
  auto bad = compare_output(out, ref, 1.0, 0xFF);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.worst_index, 37);
  EXPECT_NEAR(bad.max_rel, 0.01, 1e-6);
  EXPECT_NE(bad.reason.find("max relative error"), std::string::npos);
}

TEST(Compare, NanInfAndPoisonRules) {
  TypedBuffer out(ElemType::F16, 4);
  std::vector<double> ref = {NAN, INFINITY, 1.0, 2.0};
  out.set(0, NAN);
  out.set(1, INFINITY);
  out.set(2, 1.0);
  out.set(3, 2.0);
  EXPECT_TRUE(compare_output(out, ref, 1.0, 0xFF).pass);
  out.set(1, -INFINITY);
  EXPECT_EQ(compare_output(out, ref, 1.0, 0xFF).inf_mismatch, 1);
  out.set(1, INFINITY);
  out.set(2, NAN);
  auto r = compare_output(out, ref, 1.0, 0xFF);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.nan_mismatch, 1);
  EXPECT_EQ(r.worst_index, 2);
  TypedBuffer never(ElemType::F32, 4);
  std::fill(never.bytes.begin(), never.bytes.end(), 0xFF);
  auto p = compare_output(never, {1, 2, 3, 4}, 1.0, 0xFF);
  EXPECT_FALSE(p.pass);
  EXPECT_EQ(p.poisoned, 4);
  EXPECT_NE(p.reason.find("never written"), std::string::npos);
  // The message says which bytes it saw, since a kernel's own NaNs can carry the same bits.
  EXPECT_NE(p.reason.find("0xFF"), std::string::npos) << p.reason;
}

TEST(Compare, IndexToString) { EXPECT_EQ(index_to_string(1021 + 5, {3, 1021}), "[1,5]"); }
