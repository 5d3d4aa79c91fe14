// DataCopyPad: byte-granular blocks, 32-byte aligned UB rows, padding and dummy
// values, stride units per side, and UB -> GM writing exactly blockLen bytes.
#include "memory/memory_test_support.h"

using namespace AscendC;
using memtest::CoreTest;
using memtest::GmBuffer;
using memtest::records_of;

namespace {

class DataCopyPadTest : public CoreTest {
 protected:
  template <typename T>
  LocalTensor<T> ub(uint32_t bytes, T sentinel) {
    pipe_.InitBuffer(bufs_[n_], bytes);
    LocalTensor<T> t = bufs_[n_++].Get<T>();
    for (uint32_t i = 0; i < t.GetSize(); ++i) t.aoc_ptr()[i] = sentinel;
    return t;
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> bufs_[4];
  int n_ = 0;
};

TEST_F(DataCopyPadTest, UnpaddedRowsEndWithTheFirstElementAsDummy) {
  GmBuffer<float> g(32, "x");
  for (int i = 0; i < 32; ++i) g.data[i] = float(100 + i);
  LocalTensor<float> u = ub<float>(256, -1.0f);
  // Two blocks of 7 floats (28 B), 4 B apart in GM: rows land at UB 0 and 32.
  DataCopyPad(u, g.tensor(), DataCopyExtParams{2, 7 * sizeof(float), 4, 0, 0},
              DataCopyPadExtParams<float>{false, 0, 0, 0});
  for (int k = 0; k < 7; ++k) {
    EXPECT_EQ(u.GetValue(k), float(100 + k));
    EXPECT_EQ(u.GetValue(8 + k), float(108 + k));
  }
  EXPECT_EQ(u.GetValue(7), 100.0f);   // dummy = the block's first element
  EXPECT_EQ(u.GetValue(15), 108.0f);
  EXPECT_EQ(u.GetValue(16), -1.0f);   // nothing beyond the second row
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].pipe, aoc::Pipe::MTE2);
  EXPECT_STREQ(c[0].op, "DataCopyPad");
  EXPECT_EQ(c[0].bursts, 2u);
  EXPECT_EQ(c[0].burst_bytes, 28u);
  EXPECT_EQ(c[0].bytes, 56u);
  EXPECT_EQ(c[0].src_gap, 4u);
  EXPECT_EQ(c[0].dst_gap, 4u);
  EXPECT_EQ(c[0].reads[0].hi - c[0].reads[0].lo, 60u);
  EXPECT_EQ(c[0].write.hi - c[0].write.lo, 64u);
}

TEST_F(DataCopyPadTest, IsPadFillsLeftRightAndTailWithThePaddingValue) {
  GmBuffer<half> g(16, "x");
  for (int i = 0; i < 16; ++i) g.data[i] = half(float(i + 1));
  LocalTensor<half> u = ub<half>(128, half(-5.0f));
  // 1 left + 5 data + 2 right = 8 halves (16 B), row completed to 32 B (16 halves).
  DataCopyPad(u, g.tensor()[2], DataCopyExtParams{1, 5 * sizeof(half), 0, 0, 0},
              DataCopyPadExtParams<half>{true, 1, 2, half(-1.0f)});
  EXPECT_EQ(float(u.GetValue(0)), -1.0f);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(float(u.GetValue(1 + k)), float(3 + k));
  for (int k = 6; k < 16; ++k) EXPECT_EQ(float(u.GetValue(k)), -1.0f) << k;
  EXPECT_EQ(float(u.GetValue(16)), -5.0f);
}

TEST_F(DataCopyPadTest, SetPadValueProvidesDummyAndPadding) {
  GmBuffer<int32_t> g(8, "x");
  for (int i = 0; i < 8; ++i) g.data[i] = i + 10;
  LocalTensor<int32_t> u = ub<int32_t>(64, -3);
  SetPadValue<int32_t>(77);
  DataCopyPad(u, g.tensor(), DataCopyExtParams{1, 3 * sizeof(int32_t), 0, 0, 0},
              DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
  EXPECT_EQ(u.GetValue(0), 10);
  EXPECT_EQ(u.GetValue(2), 12);
  for (int k = 3; k < 8; ++k) EXPECT_EQ(u.GetValue(k), 77);
  DataCopyPad(u[8], g.tensor(), DataCopyExtParams{1, 2 * sizeof(int32_t), 0, 0, 0},
              DataCopyPadExtParams<int32_t>{false, 2, 0, 0});
  EXPECT_EQ(u.GetValue(8), 77);
  EXPECT_EQ(u.GetValue(9), 77);
  EXPECT_EQ(u.GetValue(10), 10);
  EXPECT_EQ(u.GetValue(11), 11);
}

TEST_F(DataCopyPadTest, UbStrideIsInBlocksGmStrideInBytes) {
  GmBuffer<uint8_t> g(64, "bytes");
  for (int i = 0; i < 64; ++i) g.data[i] = uint8_t(i);
  LocalTensor<uint8_t> u = ub<uint8_t>(256, 0xEE);
  // 3 blocks of 5 B, 3 B apart in GM; rows are 32 B plus a 1-block gap: at 0, 64, 128.
  DataCopyPad(u, g.tensor(), DataCopyExtParams{3, 5, 3, 1, 0}, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
  for (int b = 0; b < 3; ++b) {
    for (int k = 0; k < 5; ++k) EXPECT_EQ(u.GetValue(b * 64 + k), b * 8 + k);
    for (int k = 5; k < 32; ++k) EXPECT_EQ(u.GetValue(b * 64 + k), b * 8) << b << "," << k;
    if (b < 2) {
      for (int k = 32; k < 64; ++k) EXPECT_EQ(u.GetValue(b * 64 + k), 0xEE);
    }
  }
}

TEST_F(DataCopyPadTest, UbToGmWritesOnlyBlockLenBytes) {
  GmBuffer<float> g(40, "y");
  for (auto& v : g.data) v = -9.0f;
  LocalTensor<float> u = ub<float>(256, 0.0f);
  for (int i = 0; i < 64; ++i) u.SetValue(i, float(i));
  // 2 blocks of 3 floats; UB rows 32 B apart plus 1 block; GM blocks 8 B apart.
  DataCopyPad(g.tensor(), u, DataCopyExtParams{2, 3 * sizeof(float), 1, 8, 0});
  EXPECT_EQ(g.data[0], 0.0f);
  EXPECT_EQ(g.data[2], 2.0f);
  EXPECT_EQ(g.data[3], -9.0f);
  EXPECT_EQ(g.data[4], -9.0f);
  EXPECT_EQ(g.data[5], 16.0f);  // second UB row starts at 64 B
  EXPECT_EQ(g.data[7], 18.0f);
  EXPECT_EQ(g.data[8], -9.0f);
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].pipe, aoc::Pipe::MTE3);
  EXPECT_EQ(c[0].bytes, 24u);
  EXPECT_EQ(c[0].dst_gap, 8u);
  EXPECT_EQ(c[0].src_gap, 52u);
}

TEST_F(DataCopyPadTest, LegacyParamsBehaveTheSame) {
  GmBuffer<half> g(32, "x");
  for (int i = 0; i < 32; ++i) g.data[i] = half(float(i));
  LocalTensor<half> u = ub<half>(64, half(0.0f));
  DataCopyPad(u, g.tensor()[1], DataCopyParams{1, 6, 0, 0}, DataCopyPadParams{true, 0, 1, 4});
  for (int k = 0; k < 3; ++k) EXPECT_EQ(float(u.GetValue(k)), float(1 + k));
  for (int k = 3; k < 16; ++k) EXPECT_EQ(float(u.GetValue(k)), 4.0f);
  GmBuffer<half> out(8, "out");
  DataCopyPad(out.tensor(), u, DataCopyParams{1, 4, 0, 0});
  EXPECT_EQ(float(out.data[0]), 1.0f);
  EXPECT_EQ(float(out.data[1]), 2.0f);
  EXPECT_EQ(float(out.data[2]), 0.0f);
}

TEST_F(DataCopyPadTest, AtomicAddAppliesToPadWrites) {
  GmBuffer<float> g(3, "acc");
  for (auto& v : g.data) v = 10.0f;
  LocalTensor<float> u = ub<float>(32, 1.5f);
  SetAtomicAdd<float>();
  DataCopyPad(g.tensor(), u, DataCopyExtParams{1, 3 * sizeof(float), 0, 0, 0});
  SetAtomicNone();
  for (auto v : g.data) EXPECT_EQ(v, 11.5f);
}

TEST_F(DataCopyPadTest, Errors) {
  GmBuffer<float> g(8, "tiny");
  LocalTensor<float> u = ub<float>(64, 0.0f);
  EXPECT_KERNEL_ERROR(DataCopyPad(u, g.tensor(), DataCopyExtParams{1, 6, 0, 0, 0},
                                  DataCopyPadExtParams<float>{false, 0, 0, 0}),
                      "DataCopyPad", "not a multiple of the element size");
  // 32 bytes, padded by the runtime to 64: past 64 is out of bounds.
  EXPECT_KERNEL_ERROR(DataCopyPad(u, g.tensor()[8], DataCopyExtParams{1, 9 * sizeof(float), 0, 0, 0},
                                  DataCopyPadExtParams<float>{false, 0, 0, 0}),
                      "DataCopyPad", "'tiny'");
  EXPECT_KERNEL_ERROR(DataCopyPad(u, g.tensor(), DataCopyExtParams{3, 4, 0, 0, 0},
                                  DataCopyPadExtParams<float>{false, 0, 0, 0}),
                      "DataCopyPad", "outside its buffer");
  EXPECT_KERNEL_ERROR(DataCopyPad(u[2], g.tensor(), DataCopyExtParams{1, 4, 0, 0, 0},
                                  DataCopyPadExtParams<float>{false, 0, 0, 0}),
                      "DataCopyPad", "UB address 8");
  EXPECT_KERNEL_ERROR(DataCopyPad(g.tensor()[8], u, DataCopyExtParams{1, 9 * sizeof(float), 0, 0, 0}),
                      "DataCopyPad", "out of bounds");
}

}  // namespace
