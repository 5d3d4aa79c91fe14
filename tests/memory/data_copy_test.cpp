// DataCopy: 32-byte truncation, strided blocks, directions and pipes, trace fields,
// alignment and bounds errors, atomic accumulation into GM.
#include "memory/memory_test_support.h"

using namespace AscendC;
using memtest::CoreTest;
using memtest::GmBuffer;
using memtest::records_of;

namespace {

class DataCopyTest : public CoreTest {
 protected:
  // A UB scratch tensor of `bytes`, filled with a sentinel so untouched bytes show.
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

TEST_F(DataCopyTest, CountFormRoundsDownToWhole32ByteBlocks) {
  GmBuffer<float> g(64, "x");
  for (int i = 0; i < 64; ++i) g.data[i] = float(i + 1);
  LocalTensor<float> u = ub<float>(256, -1.0f);
  DataCopy(u, g.tensor(), 20);  // 80 B -> 64 B: 16 floats
  for (int i = 0; i < 16; ++i) EXPECT_EQ(u.GetValue(i), float(i + 1)) << i;
  for (int i = 16; i < 20; ++i) EXPECT_EQ(u.GetValue(i), -1.0f) << i;  // the tail is lost
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].pipe, aoc::Pipe::MTE2);
  EXPECT_EQ(c[0].bytes, 64u);
  EXPECT_EQ(c[0].bursts, 1u);
  EXPECT_EQ(c[0].burst_bytes, 64u);
  EXPECT_EQ(c[0].dtype, aoc::DType::F32);
  EXPECT_EQ(c[0].reads[0].space, aoc::Space::GM);
  EXPECT_EQ(c[0].reads[0].lo, reinterpret_cast<uint64_t>(g.data.data()));
  EXPECT_EQ(c[0].reads[0].hi - c[0].reads[0].lo, 64u);
  EXPECT_EQ(c[0].write.space, aoc::Space::UB);
  EXPECT_EQ(c[0].write.lo, u.GetPhyAddr());
  EXPECT_EQ(c[0].write.hi, u.GetPhyAddr() + 64);
}

TEST_F(DataCopyTest, LessThanOneBlockCopiesNothing) {
  GmBuffer<half> g(16, "x");
  for (int i = 0; i < 16; ++i) g.data[i] = half(float(i));
  LocalTensor<half> u = ub<half>(64, half(-7.0f));
  DataCopy(u, g.tensor(), 10);  // 20 B -> 0 B
  for (int i = 0; i < 16; ++i) EXPECT_EQ(float(u.GetValue(i)), -7.0f);
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].bytes, 0u);
  EXPECT_FALSE(c[0].has_write);
}

TEST_F(DataCopyTest, StridedGmToUbUsesBlockUnits) {
  GmBuffer<int32_t> g(64, "x");
  for (int i = 0; i < 64; ++i) g.data[i] = i;
  LocalTensor<int32_t> u = ub<int32_t>(512, -1);
  // 3 blocks of 1 x 32 B (8 ints), skipping 1 block in GM and 2 blocks in UB between them.
  DataCopy(u, g.tensor(), DataCopyParams(3, 1, 1, 2));
  for (int b = 0; b < 3; ++b) {
    for (int k = 0; k < 8; ++k) EXPECT_EQ(u.GetValue(b * 24 + k), b * 16 + k) << b << "," << k;
    for (int k = 8; k < 24 && b < 2; ++k) EXPECT_EQ(u.GetValue(b * 24 + k), -1);
  }
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].bursts, 3u);
  EXPECT_EQ(c[0].burst_bytes, 32u);
  EXPECT_EQ(c[0].bytes, 96u);
  EXPECT_EQ(c[0].src_gap, 32u);
  EXPECT_EQ(c[0].dst_gap, 64u);
  EXPECT_EQ(c[0].reads[0].hi - c[0].reads[0].lo, 2 * 64u + 32u);
  EXPECT_EQ(c[0].write.hi - c[0].write.lo, 2 * 96u + 32u);
}

TEST_F(DataCopyTest, GapAliasesAndZeroCountsAreNoOps) {
  DataCopyParams p;
  p.srcGap = 5;
  p.dstGap = 6;
  EXPECT_EQ(p.srcStride, 5);
  EXPECT_EQ(p.dstStride, 6);
  EXPECT_EQ(p.blockCount, 1);
  GmBuffer<float> g(16, "x");
  LocalTensor<float> u = ub<float>(64, 9.0f);
  DataCopy(u, g.tensor(), DataCopyParams(0, 2, 0, 0));
  DataCopy(u, g.tensor(), DataCopyParams(2, 0, 0, 0));
  EXPECT_EQ(u.GetValue(0), 9.0f);
  for (const auto& r : records_of(aoc::RecKind::Copy)) EXPECT_EQ(r.bytes, 0u);
}

TEST_F(DataCopyTest, UbToGmAndStridedWriteBack) {
  GmBuffer<float> g(48, "y");
  for (auto& v : g.data) v = -2.0f;
  LocalTensor<float> u = ub<float>(128, 0.0f);
  for (int i = 0; i < 32; ++i) u.SetValue(i, float(i));
  DataCopy(g.tensor(), u, 13);  // 52 B -> 32 B: 8 floats
  for (int i = 0; i < 8; ++i) EXPECT_EQ(g.data[i], float(i));
  for (int i = 8; i < 16; ++i) EXPECT_EQ(g.data[i], -2.0f);
  // Two blocks, UB contiguous, GM with one block gap.
  DataCopy(g.tensor()[16], u, DataCopyParams(2, 1, 0, 1));
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(g.data[16 + k], float(k));
    EXPECT_EQ(g.data[24 + k], -2.0f);
    EXPECT_EQ(g.data[32 + k], float(8 + k));
  }
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].pipe, aoc::Pipe::MTE3);
  EXPECT_EQ(c[1].dst_gap, 32u);
  EXPECT_EQ(c[1].write.space, aoc::Space::GM);
}

TEST_F(DataCopyTest, UbToUbRunsOnTheVectorPipe) {
  LocalTensor<half> a = ub<half>(128, half(1.0f));
  LocalTensor<half> b = ub<half>(128, half(0.0f));
  for (int i = 0; i < 64; ++i) a.SetValue(i, half(float(i)));
  DataCopy(b, a, 48);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(float(b.GetValue(i)), float(i));
  EXPECT_EQ(float(b.GetValue(48)), 0.0f);
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].pipe, aoc::Pipe::V);
  EXPECT_EQ(c[0].reads[0].space, aoc::Space::UB);
}

TEST_F(DataCopyTest, GmToL1AndL1ToL0) {
  TPipe pipe;
  TQue<TPosition::A1, 1> a1;
  TQue<TPosition::A2, 1> a2;
  pipe.InitBuffer(a1, 1, 512);
  pipe.InitBuffer(a2, 1, 512);
  GmBuffer<half> g(256, "a");
  for (int i = 0; i < 256; ++i) g.data[i] = half(float(i % 50));
  LocalTensor<half> l1 = a1.AllocTensor<half>();
  DataCopy(l1, g.tensor(), 256);
  LocalTensor<half> l0 = a2.AllocTensor<half>();
  DataCopy(l0, l1, DataCopyParams(1, 8, 0, 0));
  for (int i = 0; i < 128; ++i) EXPECT_EQ(float(l0.aoc_ptr()[i]), float(i % 50));
  const auto c = records_of(aoc::RecKind::Copy);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].pipe, aoc::Pipe::MTE2);
  EXPECT_EQ(c[0].write.space, aoc::Space::L1);
  EXPECT_EQ(c[1].pipe, aoc::Pipe::MTE1);
  EXPECT_EQ(c[1].write.space, aoc::Space::L0A);
  EXPECT_EQ(c[1].bytes, 256u);
}

TEST_F(DataCopyTest, UnsupportedPathsAreErrors) {
  TPipe pipe;
  TQue<TPosition::CO1, 1> co1;
  pipe.InitBuffer(co1, 1, 1024);
  GmBuffer<float> g(256, "c");
  LocalTensor<float> c = co1.AllocTensor<float>();
  EXPECT_KERNEL_ERROR(DataCopy(g.tensor(), c, 64), "DataCopy", "Fixpipe");
  EXPECT_KERNEL_ERROR(DataCopy(c, g.tensor(), 64), "DataCopy", "no DMA path GM -> L0C");
}

TEST_F(DataCopyTest, MisalignedUbAddressIsNamed) {
  GmBuffer<float> g(64, "x");
  LocalTensor<float> u = ub<float>(256, 0.0f);
  EXPECT_KERNEL_ERROR(DataCopy(u[3], g.tensor(), 8), "DataCopy", "UB address 12 is not 32-byte aligned");
  EXPECT_KERNEL_ERROR(DataCopy(g.tensor(), u[4], 8), "DataCopy", "UB address 16");
}

TEST_F(DataCopyTest, GmOutOfBoundsIsDetected) {
  GmBuffer<float> g(32, "small_input");
  LocalTensor<float> u = ub<float>(512, 0.0f);
  EXPECT_KERNEL_ERROR(DataCopy(u, g.tensor(), 64), "DataCopy", "small_input");
  // 128 bytes, padded by the runtime to 160: past 160 is out of bounds.
  EXPECT_KERNEL_ERROR(DataCopy(u, g.tensor()[32], 16), "DataCopy", "out of bounds");
  EXPECT_KERNEL_ERROR(DataCopy(g.tensor(), u, DataCopyParams(2, 2, 0, 2)), "DataCopy", "out of bounds");
  // Nothing was written by the failed copies.
  for (auto v : g.data) EXPECT_EQ(v, 0.0f);
}

TEST_F(DataCopyTest, UbOutOfBufferIsDetected) {
  GmBuffer<float> g(256, "x");
  LocalTensor<float> u = ub<float>(64, 0.0f);
  EXPECT_KERNEL_ERROR(DataCopy(u, g.tensor(), 32), "DataCopy", "outside its buffer");
}

TEST_F(DataCopyTest, CopyIntoAFreedTensorIsDetected) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  GmBuffer<float> g(64, "x");
  LocalTensor<float> t = q.AllocTensor<float>();
  q.FreeTensor(t);
  EXPECT_KERNEL_ERROR(DataCopy(t, g.tensor(), 64), "DataCopy", "after FreeTensor");
}

TEST_F(DataCopyTest, AtomicAddAccumulatesUntilNone) {
  GmBuffer<float> g(16, "acc");
  for (auto& v : g.data) v = 1.0f;
  LocalTensor<float> u = ub<float>(64, 0.0f);
  for (int i = 0; i < 16; ++i) u.SetValue(i, float(i));
  SetAtomicAdd<float>();
  DataCopy(g.tensor(), u, 16);
  DataCopy(g.tensor(), u, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(g.data[i], 1.0f + 2.0f * i);
  SetAtomicNone();
  DataCopy(g.tensor(), u, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(g.data[i], float(i));
}

TEST_F(DataCopyTest, AtomicMaxMinAndHalfAdd) {
  GmBuffer<int32_t> g(8, "mm");
  for (int i = 0; i < 8; ++i) g.data[i] = 3;
  LocalTensor<int32_t> u = ub<int32_t>(32, 0);
  for (int i = 0; i < 8; ++i) u.SetValue(i, i);
  SetAtomicMax<int32_t>();
  DataCopy(g.tensor(), u, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(g.data[i], std::max(3, i));
  SetAtomicMin<int32_t>();
  for (int i = 0; i < 8; ++i) u.SetValue(i, 7 - i);
  DataCopy(g.tensor(), u, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(g.data[i], std::min(std::max(3, i), 7 - i));
  GmBuffer<half> h(16, "h");
  for (auto& v : h.data) v = half(0.5f);
  LocalTensor<half> hu = ub<half>(32, half(0.25f));
  SetAtomicAdd<half>();
  DataCopy(h.tensor(), hu, 16);
  SetAtomicNone();
  for (auto v : h.data) EXPECT_EQ(float(v), 0.75f);
}

}  // namespace
