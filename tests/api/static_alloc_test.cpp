// The static-tensor style: LocalMemAllocator places consecutive 32-byte aligned tensors in one
// local memory and refuses one that would run past its end; InitSocState resets the vector mask.
#include <gtest/gtest.h>

#include "kernel_operator.h"

namespace {

TEST(StaticAlloc, TensorsAreConsecutiveAndAligned) {
  aoc::core().init(aoc::CoreLimits{});
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<half> a = ub.Alloc<half, 17>();  // 34 bytes, rounded to 64
  EXPECT_EQ(ub.GetCurAddr(), 64u);
  AscendC::LocalTensor<float> b = ub.Alloc<AscendC::TPosition::VECIN, float>(8);
  EXPECT_EQ(ub.GetCurAddr(), 96u);
  EXPECT_EQ(a.GetSize(), 17u);
  EXPECT_EQ(b.GetSize(), 8u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.GetPhyAddr()) - reinterpret_cast<uintptr_t>(a.GetPhyAddr()), 64u);
  AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
  EXPECT_EQ(l1.Alloc<float>(16).GetPosition(), AscendC::TPosition::A1);
}

TEST(StaticAlloc, PastTheEndOfTheMemoryIsAnError) {
  aoc::core().init(aoc::CoreLimits{});
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  const uint32_t ub_floats = static_cast<uint32_t>(aoc::core().ub.size() / sizeof(float));
  (void)ub.Alloc<float>(ub_floats - 8);
  EXPECT_THROW((void)ub.Alloc<float>(16), aoc::KernelError);
}

TEST(StaticAlloc, InitSocStateResetsTheMask) {
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float>(0, 5);
  AscendC::InitSocState();
  EXPECT_EQ(aoc::core().mask_mode, aoc::MaskMode::NORMAL);
  EXPECT_EQ(aoc::core().mask_low, ~0ull);
  EXPECT_EQ(aoc::core().mask_high, ~0ull);
}

}  // namespace

TEST(SystemCycle, GrowsAsTheCoreIssuesInstructions) {
  aoc::core().init(aoc::CoreLimits{});
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
  const int64_t before = AscendC::GetSystemCycle();
  AscendC::Duplicate(a, 1.0f, 64);
  EXPECT_GT(AscendC::GetSystemCycle(), before);
}
