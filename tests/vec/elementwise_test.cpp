// Element-wise instructions: both call forms, masks, counter mode, strides,
// fp16 rounding/overflow, NaN handling, operand checks and trace records.
#include "vec_test_util.h"

using namespace AscendC;
using vectest::VecTest;

TEST_F(VecTest, AddCountFormComputesExactlyCountElements) {
  auto a = ub<float>(0, 256), b = ub<float>(1024, 256), c = ub<float>(2048, 256);
  for (int i = 0; i < 256; ++i) { a.aoc_ptr()[i] = i * 0.5f; b.aoc_ptr()[i] = 100.0f - i; }
  fill(c, 256, -7.0f);
  Add(c, a, b, 100);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(c.aoc_ptr()[i], i < 100 ? i * 0.5f + (100.0f - i) : -7.0f) << i;
  EXPECT_EQ(aoc::core().mask_mode, MaskMode::NORMAL);
}

TEST_F(VecTest, HalfAddRoundsPerInstructionAndOverflowsToInf) {
  auto a = ub<half>(0, 128), b = ub<half>(512, 128), c = ub<half>(1024, 128);
  fill(a, 128, half(60000.0f));
  fill(b, 128, half(10000.0f));
  a.aoc_ptr()[1] = half(1.0f); b.aoc_ptr()[1] = half(0.0004883f);  // 1 + 2^-11: tie, rounds to even (1.0)
  Add(c, a, b, 128);
  EXPECT_TRUE(std::isinf(float(c.aoc_ptr()[0])));
  EXPECT_EQ(float(c.aoc_ptr()[1]), 1.0f);
}

TEST_F(VecTest, Level0BitMaskLeavesDisabledLanesUntouched) {
  auto a = ub<half>(0, 256), b = ub<half>(512, 256), c = ub<half>(1024, 256);
  fill(a, 256, half(1.0f)); fill(b, 256, half(2.0f)); fill(c, 256, half(-9.0f));
  uint64_t mask[2] = {0x5ull, 0x1ull};  // lanes 0, 2 and 64 of every repeat
  Mul(c, a, b, mask, 2, BinaryRepeatParams());
  for (int i = 0; i < 256; ++i) {
    const int lane = i % 128;
    const bool on = lane == 0 || lane == 2 || lane == 64;
    EXPECT_EQ(float(c.aoc_ptr()[i]), on ? 2.0f : -9.0f) << i;
  }
  EXPECT_EQ(last().elems, 6u);
  EXPECT_EQ(last().repeats, 2u);
}

TEST_F(VecTest, ScalarMaskAndZeroMaskAndZeroRepeat) {
  auto a = ub<float>(0, 128), c = ub<float>(1024, 128);
  fill(a, 128, 3.0f); fill(c, 128, 0.0f);
  Adds(c, a, 1.0f, 10, 1, UnaryRepeatParams());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c.aoc_ptr()[i], i < 10 ? 4.0f : 0.0f);
  fill(c, 128, 0.0f);
  Adds(c, a, 1.0f, uint64_t(0), 1, UnaryRepeatParams());  // mask 0: no-op
  Adds(c, a, 1.0f, 64, 0, UnaryRepeatParams());  // repeat 0: no-op
  for (int i = 0; i < 128; ++i) EXPECT_EQ(c.aoc_ptr()[i], 0.0f);
  EXPECT_EQ(last().elems, 0u);
}

TEST_F(VecTest, CounterModeProcessesMaskElementsIgnoringRepeatTime) {
  auto a = ub<float>(0, 256), b = ub<float>(1024, 256), c = ub<float>(2048, 256);
  fill(a, 256, 1.0f); fill(b, 256, 2.0f); fill(c, 256, 0.0f);
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(0, 150);
  Sub<float, false>(c, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
  SetMaskNorm();
  ResetMask();
  for (int i = 0; i < 256; ++i) EXPECT_EQ(c.aoc_ptr()[i], i < 150 ? -1.0f : 0.0f) << i;
  EXPECT_EQ(last().repeats, 3u);
}

TEST_F(VecTest, ExternalNormalMaskWithIsSetMaskFalse) {
  auto a = ub<float>(0, 64), c = ub<float>(1024, 64);
  fill(a, 64, -2.0f); fill(c, 64, 5.0f);
  SetVectorMask<float>(0, 0xF0ull);
  Abs<float, false>(c, a, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c.aoc_ptr()[i], (i >= 4 && i < 8) ? 2.0f : 5.0f);
}

TEST_F(VecTest, BlockStrideTwoAndRepeatStrideZero) {
  auto a = ub<float>(0, 1024), c = ub<float>(8192, 1024);
  for (int i = 0; i < 1024; ++i) a.aoc_ptr()[i] = float(i);
  fill(c, 1024, -1.0f);
  // src: block stride 2, repeat stride 0 (both repeats read the same blocks); dst contiguous.
  Muls(c, a, 2.0f, 64, 2, UnaryRepeatParams(1, 2, 8, 0));
  for (int r = 0; r < 2; ++r)
    for (int l = 0; l < 64; ++l) {
      const int src = (l / 8) * 16 + l % 8;
      EXPECT_EQ(c.aoc_ptr()[r * 64 + l], 2.0f * src) << r << "," << l;
    }
  EXPECT_EQ(c.aoc_ptr()[128], -1.0f);
  EXPECT_EQ(last().reads[0].lo, 0u);
  EXPECT_EQ(last().reads[0].hi, (14u * 8 + 8) * 4);  // last touched element is block 14's end
}

TEST_F(VecTest, MaxMinPropagateNaN) {
  auto a = ub<float>(0, 64), b = ub<float>(256, 64), c = ub<float>(512, 64);
  fill(a, 64, 1.0f); fill(b, 64, 2.0f);
  a.aoc_ptr()[3] = NAN; b.aoc_ptr()[5] = NAN;
  Max(c, a, b, 64);
  EXPECT_TRUE(std::isnan(c.aoc_ptr()[3]));
  EXPECT_TRUE(std::isnan(c.aoc_ptr()[5]));
  EXPECT_EQ(c.aoc_ptr()[0], 2.0f);
  Min(c, a, b, 64);
  EXPECT_TRUE(std::isnan(c.aoc_ptr()[3]));
  EXPECT_EQ(c.aoc_ptr()[0], 1.0f);
}

TEST_F(VecTest, UnaryAndScalarFamiliesAgainstReference) {
  auto a = ub<float>(0, 64), c = ub<float>(512, 64);
  for (int i = 0; i < 64; ++i) a.aoc_ptr()[i] = float(i) - 20.0f;
  Relu(c, a, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c.aoc_ptr()[i], std::max(0.0f, float(i) - 20.0f));
  LeakyRelu(c, a, 0.5f, 64);
  for (int i = 0; i < 64; ++i) { float x = float(i) - 20.0f; EXPECT_EQ(c.aoc_ptr()[i], x >= 0 ? x : x * 0.5f); }
  Exp(c, a, 64);
  for (int i = 0; i < 64; ++i) EXPECT_FLOAT_EQ(c.aoc_ptr()[i], std::exp(float(i) - 20.0f));
  Maxs(c, a, 3.0f, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c.aoc_ptr()[i], std::max(3.0f, float(i) - 20.0f));
  auto s = ub<int16_t>(1024, 128), d = ub<int16_t>(2048, 128);
  for (int i = 0; i < 128; ++i) s.aoc_ptr()[i] = int16_t(i * 3 - 100);
  ShiftRight(d, s, int16_t(2), 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(d.aoc_ptr()[i], int16_t((i * 3 - 100) >> 2));
  Not(d, s, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(d.aoc_ptr()[i], int16_t(~(i * 3 - 100)));
}

TEST_F(VecTest, AxpyHalfIntoFloatAndMulAddDst) {
  auto src = ub<half>(0, 64);
  auto acc = ub<float>(512, 64);
  for (int i = 0; i < 64; ++i) { src.aoc_ptr()[i] = half(float(i)); acc.aoc_ptr()[i] = 1.0f; }
  Axpy(acc, src, half(0.5f), 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(acc.aoc_ptr()[i], 1.0f + 0.5f * i);
  MulAddDst(acc, src, src, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(acc.aoc_ptr()[i], 1.0f + 0.5f * i + float(i * i));
  EXPECT_EQ(last().nreads, 3);  // src0, src1 and the accumulated dst
  EXPECT_EQ(last().dst_dtype, aoc::DType::F32);
}

TEST_F(VecTest, DuplicateBrcbCreateVecIndex) {
  auto d = ub<float>(0, 256);
  fill(d, 256, 0.0f);
  Duplicate(d, 7.0f, 100);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(d.aoc_ptr()[i], i < 100 ? 7.0f : 0.0f);
  Duplicate(d, 3.0f, 16, 2, 2, 16);  // lanes 0..15 = blocks 0 and 1 at block stride 2; repeats 16 blocks apart
  EXPECT_EQ(d.aoc_ptr()[0], 3.0f);
  EXPECT_EQ(d.aoc_ptr()[16], 3.0f);
  EXPECT_EQ(d.aoc_ptr()[8], 7.0f);
  EXPECT_EQ(d.aoc_ptr()[128], 3.0f);
  auto s = ub<float>(2048, 16), b = ub<float>(4096, 128);
  for (int i = 0; i < 16; ++i) s.aoc_ptr()[i] = float(i + 1);
  Brcb(b, s, 2, BrcbRepeatParams(1, 8));
  for (int i = 0; i < 128; ++i) EXPECT_EQ(b.aoc_ptr()[i], float(i / 8 + 1)) << i;
  auto idx = ub<int32_t>(8192, 70);
  CreateVecIndex(idx, 5, 70);
  for (int i = 0; i < 70; ++i) EXPECT_EQ(idx.aoc_ptr()[i], 5 + i);
}

TEST_F(VecTest, MisalignedOperandIsAnError) {
  auto a = ub<float>(0, 128), c = ub<float>(1024, 128);
  try {
    Add(c[1], a, a, 8);
    FAIL() << "expected a KernelError";
  } catch (const aoc::KernelError& e) {
    EXPECT_EQ(e.api(), "Add");
    EXPECT_NE(e.detail().find("not 32-byte aligned"), std::string::npos);
    EXPECT_NE(e.file().find("elementwise_test.cpp"), std::string::npos);
  }
}

TEST_F(VecTest, OutOfBufferAccessIsAnErrorAndWritesNothing) {
  auto a = ub<float>(0, 64), c = ub<float>(1024, 32);
  fill(a, 64, 1.0f);
  auto tail = ub<float>(1024 + 128, 32);
  fill(tail, 32, 9.0f);
  EXPECT_THROW(Adds(c, a, 1.0f, 64), aoc::KernelError);
  EXPECT_EQ(tail.aoc_ptr()[0], 9.0f);
  // A stride that walks past the buffer end is caught too.
  EXPECT_THROW(Adds(a, a, 1.0f, 64, 1, UnaryRepeatParams(1, 2, 8, 8)), aoc::KernelError);
}

TEST_F(VecTest, TraceRecordFields) {
  auto a = ub<half>(0, 512), b = ub<half>(1024, 512), c = ub<half>(2048, 512);
  const size_t before = aoc::core().trace.records.size();
  Add(c, a, b, 300);
  ASSERT_EQ(aoc::core().trace.records.size(), before + 1);
  const aoc::TraceRecord& r = last();
  EXPECT_EQ(r.kind, aoc::RecKind::Compute);
  EXPECT_EQ(r.pipe, aoc::Pipe::V);
  EXPECT_STREQ(r.op, "Add");
  EXPECT_EQ(r.dtype, aoc::DType::F16);
  EXPECT_EQ(r.elems, 300u);
  EXPECT_EQ(r.repeats, 3u);  // ceil(300 * 2 / 256)
  ASSERT_EQ(r.nreads, 2);
  EXPECT_EQ(r.reads[0].lo, 0u);
  EXPECT_EQ(r.reads[0].hi, 600u);
  EXPECT_EQ(r.reads[1].lo, 1024u);
  EXPECT_TRUE(r.has_write);
  EXPECT_EQ(r.write.lo, 2048u);
  EXPECT_EQ(r.write.hi, 2048u + 600u);
  EXPECT_NE(std::string(r.file).find("elementwise_test.cpp"), std::string::npos);
}

// Every lane on with contiguous operands takes a flat loop (aoc/vec/engine.h); one lane short
// of a full mask, or a repeat stride with a gap, takes the per-lane one. Both give what the
// lane definition gives, also in place.
TEST_F(VecTest, FullMasksPartialMasksAndGapsFollowTheLaneDefinition) {
  struct Mask { uint64_t lo, hi; };
  for (const Mask m : {Mask{~0ull, ~0ull}, Mask{~0ull, ~0ull >> 1}, Mask{~0ull << 1, ~0ull}}) {
    for (const uint8_t repStride : {uint8_t(8), uint8_t(10)}) {
      auto a = ub<half>(0, 512), c = ub<half>(2048, 512);
      for (int i = 0; i < 512; ++i) {
        a.aoc_ptr()[i] = half(float(i % 97));
        c.aoc_ptr()[i] = half(-1.0f);
      }
      uint64_t mask[2] = {m.lo, m.hi};
      BinaryRepeatParams p;
      p.dstRepStride = p.src0RepStride = p.src1RepStride = repStride;
      Add(c, a, a, mask, 3, p);
      std::vector<float> expected(512, -1.0f);
      for (int r = 0; r < 3; ++r)
        for (int l = 0; l < 128; ++l) {
          const bool on = l < 64 ? (m.lo >> l) & 1 : (m.hi >> (l - 64)) & 1;
          const int i = r * repStride * 16 + l;
          if (on) expected[i] = 2.0f * float(i % 97);
        }
      for (int i = 0; i < 512; ++i)
        EXPECT_EQ(float(c.aoc_ptr()[i]), expected[i]) << "lo " << m.lo << " hi " << m.hi << " stride " << int(repStride)
                                                       << " element " << i;
    }
  }
  auto c = ub<float>(0, 320);
  for (int i = 0; i < 320; ++i) c.aoc_ptr()[i] = float(i);
  Add(c, c, c, 300);
  for (int i = 0; i < 320; ++i) EXPECT_EQ(c.aoc_ptr()[i], i < 300 ? 2.0f * i : float(i)) << i;
}
