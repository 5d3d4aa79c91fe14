// Cast round modes and saturation, Compare bit layout and the 256-byte rule, Select modes.
#include <limits>

#include "vec_test_util.h"

using namespace AscendC;
using vectest::VecTest;

TEST_F(VecTest, CastFloatToInt32EveryRoundModeOnTies) {
  auto s = ub<float>(0, 64);
  auto d = ub<int32_t>(512, 64);
  const float in[] = {2.5f, -2.5f, 0.5f, 1.5f, 3e9f, -INFINITY, NAN, -0.4f};
  for (int i = 0; i < 8; ++i) s.aoc_ptr()[i] = in[i];
  struct Case { RoundMode m; int32_t want[6]; };
  const Case cases[] = {
      {RoundMode::CAST_RINT, {2, -2, 0, 2}}, {RoundMode::CAST_NONE, {2, -2, 0, 2}},
      {RoundMode::CAST_FLOOR, {2, -3, 0, 1}}, {RoundMode::CAST_CEIL, {3, -2, 1, 2}},
      {RoundMode::CAST_ROUND, {3, -3, 1, 2}}, {RoundMode::CAST_TRUNC, {2, -2, 0, 1}},
  };
  for (const Case& c : cases) {
    Cast(d, s, c.m, 8);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(d.aoc_ptr()[i], c.want[i]) << int(c.m) << " " << in[i];
    EXPECT_EQ(d.aoc_ptr()[4], std::numeric_limits<int32_t>::max());
    EXPECT_EQ(d.aoc_ptr()[5], std::numeric_limits<int32_t>::min());
    EXPECT_EQ(d.aoc_ptr()[6], 0);
  }
  EXPECT_EQ(last().dtype, aoc::DType::F32);
  EXPECT_EQ(last().dst_dtype, aoc::DType::I32);
}

TEST_F(VecTest, CastFloatToHalfModesOverflowAndOdd) {
  auto s = ub<float>(0, 64);
  auto d = ub<half>(512, 64);
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // halfway between 1 and 1 + 2^-10
  const float in[] = {tie, 70000.0f, -70000.0f, NAN, INFINITY, 65519.0f};
  for (int i = 0; i < 6; ++i) s.aoc_ptr()[i] = in[i];
  Cast(d, s, RoundMode::CAST_RINT, 6);
  EXPECT_EQ(float(d.aoc_ptr()[0]), 1.0f);
  EXPECT_TRUE(std::isinf(float(d.aoc_ptr()[1])));
  EXPECT_TRUE(std::isnan(float(d.aoc_ptr()[3])));
  EXPECT_TRUE(std::isinf(float(d.aoc_ptr()[4])));
  EXPECT_EQ(float(d.aoc_ptr()[5]), 65504.0f);
  Cast(d, s, RoundMode::CAST_ODD, 6);
  EXPECT_EQ(float(d.aoc_ptr()[0]), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(float(d.aoc_ptr()[1]), 65504.0f);
  Cast(d, s, RoundMode::CAST_CEIL, 6);
  EXPECT_EQ(float(d.aoc_ptr()[0]), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(float(d.aoc_ptr()[2]), -65504.0f);
  Cast(d, s, RoundMode::CAST_FLOOR, 6);
  EXPECT_EQ(float(d.aoc_ptr()[0]), 1.0f);
  EXPECT_TRUE(std::isinf(float(d.aoc_ptr()[2])));
  auto i8 = ub<int8_t>(1024, 64);
  auto h = ub<half>(2048, 64);
  h.aoc_ptr()[0] = half(300.0f); h.aoc_ptr()[1] = half(-300.0f); h.aoc_ptr()[2] = half(-2.5f);
  Cast(i8, h, RoundMode::CAST_ROUND, 3);
  EXPECT_EQ(i8.aoc_ptr()[0], 127);
  EXPECT_EQ(i8.aoc_ptr()[1], -128);
  EXPECT_EQ(i8.aoc_ptr()[2], -3);
  EXPECT_THROW(Cast(i8, h, RoundMode::CAST_ODD, 3), aoc::KernelError);
}

TEST_F(VecTest, CastHalfToFloatLevel0NarrowBlocks) {
  auto h = ub<half>(0, 128);
  auto f = ub<float>(1024, 128);
  for (int i = 0; i < 128; ++i) h.aoc_ptr()[i] = half(float(i));
  Cast(f, h, RoundMode::CAST_NONE, 64, 2, UnaryRepeatParams(1, 1, 8, 4));  // src repeats 64 halves apart
  for (int i = 0; i < 128; ++i) EXPECT_EQ(f.aoc_ptr()[i], float(i));
}

TEST_F(VecTest, CompareBitLayoutAnd256ByteRule) {
  auto a = ub<float>(0, 128), b = ub<float>(512, 128);
  auto m = ub<uint8_t>(1024, 32);
  for (int i = 0; i < 128; ++i) { a.aoc_ptr()[i] = float(i % 3); b.aoc_ptr()[i] = 1.0f; }
  for (int i = 0; i < 32; ++i) m.aoc_ptr()[i] = 0xAA;
  Compare(m, a, b, CMPMODE::LT, 100);  // 400 B: only the first 256 B (64 elements) are compared
  for (int i = 0; i < 64; ++i) EXPECT_EQ((m.aoc_ptr()[i / 8] >> (i % 8)) & 1, i % 3 == 0 ? 1 : 0) << i;
  for (int byte = 8; byte < 32; ++byte) EXPECT_EQ(m.aoc_ptr()[byte], 0xAA);
  EXPECT_EQ(last().repeats, 1u);
  EXPECT_EQ(last().dst_dtype, aoc::DType::B1);
  a.aoc_ptr()[1] = NAN;
  Compare(m, a, b, CMPMODE::NE, 64);
  EXPECT_EQ((m.aoc_ptr()[0] >> 1) & 1, 1);
  CompareScalar(m, a, 2.0f, CMPMODE::EQ, 64);
  for (int i = 2; i < 64; ++i) EXPECT_EQ((m.aoc_ptr()[i / 8] >> (i % 8)) & 1, i % 3 == 2 ? 1 : 0) << i;
}

TEST_F(VecTest, SelectTensorModesConsumeConsecutiveSlices) {
  auto a = ub<half>(0, 256), b = ub<half>(512, 256), d = ub<half>(1024, 256);
  auto m = ub<uint8_t>(2048, 32);
  fill(a, 256, half(1.0f)); fill(b, 256, half(2.0f));
  for (int i = 0; i < 32; ++i) m.aoc_ptr()[i] = uint8_t(i * 37 + 5);
  auto bit = [&](int i) { return (m.aoc_ptr()[i / 8] >> (i % 8)) & 1; };
  Select(d, m, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(float(d.aoc_ptr()[i]), bit(i) ? 1.0f : 2.0f) << i;
  Select(d, m, a, half(5.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(float(d.aoc_ptr()[i]), bit(i) ? 1.0f : 5.0f) << i;
  // VSEL_CMPMASK_SPR: the first 128 bits are reused by the second repeat.
  Select(d, m, a, b, SELMODE::VSEL_CMPMASK_SPR, 128, 2, BinaryRepeatParams());
  for (int i = 0; i < 256; ++i) EXPECT_EQ(float(d.aoc_ptr()[i]), bit(i % 128) ? 1.0f : 2.0f) << i;
  EXPECT_EQ(last().nreads, 3);
}

TEST_F(VecTest, CompareIntoCmpMaskThenSelectFromRegister) {
  auto a = ub<float>(0, 64), b = ub<float>(512, 64), d = ub<float>(1024, 128);
  for (int i = 0; i < 64; ++i) { a.aoc_ptr()[i] = float(i); b.aoc_ptr()[i] = 31.5f; }
  Compare(a, b, CMPMODE::GT, 64, BinaryRepeatParams());
  auto x = ub<float>(2048, 128), y = ub<float>(4096, 128);
  fill(x, 128, 1.0f); fill(y, 128, 0.0f);
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(d, x, y, 2, BinaryRepeatParams());
  for (int i = 0; i < 128; ++i) EXPECT_EQ(d.aoc_ptr()[i], (i % 64) > 31 ? 1.0f : 0.0f) << i;
  auto saved = ub<uint8_t>(8192, 32);
  GetCmpMask(saved);
  EXPECT_EQ(saved.aoc_ptr()[4], 0xFF);
  EXPECT_EQ(saved.aoc_ptr()[3], 0x00);
}
