// Reductions, Gather with byte offsets, GatherMask patterns, Transpose.
#include "vec_test_util.h"

using namespace AscendC;
using vectest::VecTest;

namespace {
// Reference pairwise tree over one 128-lane half repeat, rounding each add to half.
half tree_half(std::vector<half> v) {
  v.resize(128, half(0.0f));
  for (size_t n = 128; n > 1; n /= 2)
    for (size_t i = 0; i < n / 2; ++i) v[i] = half(float(v[2 * i]) + float(v[2 * i + 1]));
  return v[0];
}
}  // namespace

TEST_F(VecTest, ReduceSumNonMultipleOfRepeat) {
  auto s = ub<float>(0, 300), d = ub<float>(2048, 8), w = ub<float>(4096, 64);
  double want = 0;
  for (int i = 0; i < 300; ++i) { s.aoc_ptr()[i] = float(i % 17); want += i % 17; }
  ReduceSum(d, s, w, 300);
  EXPECT_EQ(d.aoc_ptr()[0], float(want));
  EXPECT_EQ(last().repeats, 5u);
}

TEST_F(VecTest, ReduceSumHalfFollowsTreeOrder) {
  auto s = ub<half>(0, 128), d = ub<half>(512, 16), w = ub<half>(1024, 16);
  std::vector<half> v;
  for (int i = 0; i < 128; ++i) v.push_back(half(i == 0 ? 2048.0f : 1.0f));  // sequential order would lose the 1s
  for (int i = 0; i < 128; ++i) s.aoc_ptr()[i] = v[i];
  ReduceSum(d, s, w, 128);
  EXPECT_EQ(d.aoc_ptr()[0].bits, tree_half(v).bits);
}

TEST_F(VecTest, ReduceMaxIndexEncodingAndTies) {
  auto s = ub<float>(0, 300), d = ub<float>(2048, 8), w = ub<float>(4096, 64);
  for (int i = 0; i < 300; ++i) s.aoc_ptr()[i] = float(i % 50);
  s.aoc_ptr()[7] = 99.0f; s.aoc_ptr()[200] = 99.0f;
  ReduceMax(d, s, w, 300, true);
  EXPECT_EQ(d.aoc_ptr()[0], 99.0f);
  uint32_t idx;
  std::memcpy(&idx, &d.aoc_ptr()[1], 4);
  EXPECT_EQ(idx, 7u);
  ReduceMin(d, s, w, 300, true);
  EXPECT_EQ(d.aoc_ptr()[0], 0.0f);
  std::memcpy(&idx, &d.aoc_ptr()[1], 4);
  EXPECT_EQ(idx, 0u);
  float v, i;
  GetReduceMaxMinCount(v, i);
  EXPECT_EQ(v, 0.0f);
}

TEST_F(VecTest, WholeAndBlockAndPairReductions) {
  auto s = ub<float>(0, 128), d = ub<float>(1024, 64);
  for (int i = 0; i < 128; ++i) s.aoc_ptr()[i] = float(i);
  fill(d, 64, -1.0f);
  WholeReduceSum(d, s, 64, 2, 1, 1, 8);
  EXPECT_EQ(d.aoc_ptr()[0], 63.0f * 64 / 2);
  EXPECT_EQ(d.aoc_ptr()[1], 64.0f * 64 + 63.0f * 64 / 2);
  WholeReduceMax(d, s, 64, 2, 1, 1, 8);  // value, index pairs
  EXPECT_EQ(d.aoc_ptr()[0], 63.0f);
  uint32_t idx;
  std::memcpy(&idx, &d.aoc_ptr()[1], 4);
  EXPECT_EQ(idx, 63u);
  EXPECT_EQ(d.aoc_ptr()[2], 127.0f);
  BlockReduceSum(d, s, 1, 64, 1, 1, 8);
  for (int b = 0; b < 8; ++b) EXPECT_EQ(d.aoc_ptr()[b], float(b * 64 + 28)) << b;
  PairReduceSum(d, s, 1, 64, 1, 1, 8);
  for (int k = 0; k < 32; ++k) EXPECT_EQ(d.aoc_ptr()[k], float(4 * k + 1)) << k;
  // ReduceDataBlock takes the mask before the repeat count: 64 lanes, one repeat.
  ReduceDataBlock<ReduceType::MAX, float>(d, s, 64, 1, 1, 1, 8);
  for (int b = 0; b < 8; ++b) EXPECT_EQ(d.aoc_ptr()[b], float(8 * b + 7)) << b;
}

TEST_F(VecTest, GatherUsesByteOffsets) {
  auto s = ub<float>(0, 64), d = ub<float>(512, 64);
  auto off = ub<uint32_t>(1024, 64);
  for (int i = 0; i < 64; ++i) { s.aoc_ptr()[i] = float(i * 10); off.aoc_ptr()[i] = uint32_t((i * 3 % 64) * 4); }
  Gather(d, s, off, 0, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(d.aoc_ptr()[i], float((i * 3 % 64) * 10)) << i;
  off.aoc_ptr()[0] = 2;  // not a multiple of sizeof(float)
  EXPECT_THROW(Gather(d, s, off, 0, 64), aoc::KernelError);
  off.aoc_ptr()[0] = 64 * 4;  // one past the source buffer
  EXPECT_THROW(Gather(d, s, off, 0, 64), aoc::KernelError);
}

TEST_F(VecTest, GatherMaskBuiltinAndUserPatterns) {
  auto s = ub<float>(0, 64), d = ub<float>(512, 64);
  for (int i = 0; i < 64; ++i) s.aoc_ptr()[i] = float(i);
  uint64_t cnt = 0;
  GatherMask(d, s, uint8_t(2), false, 0, GatherMaskParams(1, 1, 8, 0), cnt);
  EXPECT_EQ(cnt, 32u);
  for (int k = 0; k < 32; ++k) EXPECT_EQ(d.aoc_ptr()[k], float(2 * k + 1));
  auto pat = ub<uint32_t>(1024, 8);
  pat.aoc_ptr()[0] = 0x80000001u; pat.aoc_ptr()[1] = 0x1u;
  GatherMask(d, s, pat, false, 0, GatherMaskParams(1, 1, 8, 0), cnt);
  EXPECT_EQ(cnt, 3u);
  EXPECT_EQ(d.aoc_ptr()[0], 0.0f);
  EXPECT_EQ(d.aoc_ptr()[1], 31.0f);
  EXPECT_EQ(d.aoc_ptr()[2], 32.0f);
}

TEST_F(VecTest, TransposeSixteenBySixteen) {
  auto s = ub<int16_t>(0, 256), d = ub<int16_t>(512, 256);
  for (int i = 0; i < 256; ++i) s.aoc_ptr()[i] = int16_t(i);
  Transpose(d, s);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) EXPECT_EQ(d.aoc_ptr()[c * 16 + r], int16_t(r * 16 + c));
}
