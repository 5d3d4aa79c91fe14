// Broadcast / BroadCast: [1] -> [n], [1, k] -> [m, k] (in place, as kernels broadcast gamma) and
// [m, 1] -> [m, k], with rows that are and are not whole 32 B blocks; shape errors; the traced
// instruction sequence.
#include "adv/adv_test_util.h"

namespace {

using namespace advtest;
using AscendC::LocalTensor;

class BroadcastTest : public AdvTest {};

TEST_F(BroadcastTest, OneDimensionRepeatsTheElement) {
  LocalTensor<float> src = ub<float>(8), dst = ub<float>(100);
  fill(src, {2.5});
  const uint32_t dstShape[1] = {100}, srcShape[1] = {1};
  AscendC::Broadcast<float, 1, 0>(dst, src, dstShape, srcShape);
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(at(dst, i), 2.5) << i;
}

TEST_F(BroadcastTest, AxisZeroRepeatsTheRowInPlace) {
  LocalTensor<half> t = ub<half>(5 * 13);
  LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
  std::vector<double> row;
  for (int c = 0; c < 13; ++c) row.push_back(c - 6);
  fill(t, row);
  const uint32_t dstShape[2] = {5, 13}, srcShape[2] = {1, 13};
  AscendC::BroadCast<half, 2, 0>(t, t, dstShape, srcShape, tmp);
  for (uint32_t r = 0; r < 5; ++r)
    for (uint32_t c = 0; c < 13; ++c) EXPECT_EQ(at(t, r * 13 + c), double(c) - 6) << r << "," << c;
  const auto ops = vec_ops();
  EXPECT_TRUE(contains(ops, "Copy"));
  EXPECT_TRUE(contains(ops, "GatherMask"));  // 13 halves are not a whole block: rows are packed
}

TEST_F(BroadcastTest, AxisOneRepeatsEachElementAlongItsRow) {
  LocalTensor<float> src = ub<float>(8), dst = ub<float>(3 * 16);
  fill(src, {1, 2, 3});
  const uint32_t dstShape[2] = {3, 16}, srcShape[2] = {3, 1};
  AscendC::Broadcast<float, 2, 1>(dst, src, dstShape, srcShape);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t c = 0; c < 16; ++c) EXPECT_EQ(at(dst, r * 16 + c), double(r + 1)) << r << "," << c;
  EXPECT_EQ(vec_ops(), (std::vector<std::string>{"Brcb", "Copy"}));  // 16 floats: whole blocks
}

TEST_F(BroadcastTest, ShapesThatAreNotABroadcastAreErrors) {
  LocalTensor<float> src = ub<float>(8), dst = ub<float>(64);
  const uint32_t dstShape[2] = {4, 16}, srcShape[2] = {2, 1};
  try {
    AscendC::Broadcast<float, 2, 1>(dst, src, dstShape, srcShape);
    FAIL() << "no error";
  } catch (const aoc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("axis 1 takes srcShape [m, 1] to dstShape [m, k]"), std::string::npos)
        << e.what();
  }
  const uint32_t big[2] = {4, 100};  // 400 floats do not fit the 64 of dst
  const uint32_t row[2] = {1, 100};
  EXPECT_THROW((AscendC::Broadcast<float, 2, 0>(dst, ub<float>(100), big, row)), aoc::KernelError);
}

}  // namespace
