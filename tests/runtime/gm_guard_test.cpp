// GM reachable only through the API: a kernel that computes with plain C++ through the raw GM
// pointers it receives, or writes past a buffer's end through them, stops with a clear error
// naming the buffer; the same work done through GlobalTensor runs and is traced.
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "aoc/launch.h"
#include "runtime/gm_guard.h"

namespace {

constexpr uint32_t kN = 64;

// The scalar cheat: y = 2x computed element by element through raw pointers, no API call.
extern "C" __global__ __aicore__ void raw_double(GM_ADDR x, GM_ADDR y) {
  auto* in = reinterpret_cast<const float*>(x);
  auto* out = reinterpret_cast<float*>(y);
  for (uint32_t i = 0; i < kN; ++i) out[i] = 2.0f * in[i];
}

// The same through the API.
extern "C" __global__ __aicore__ void api_double(GM_ADDR x, GM_ADDR y) {
  AscendC::GlobalTensor<float> in, out;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kN);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kN);
  for (uint32_t i = 0; i < kN; ++i) out.SetValue(i, 2.0f * in.GetValue(i));
}

// Writes through the API, then one element past the end of y through the raw pointer.
extern "C" __global__ __aicore__ void raw_overrun(GM_ADDR x, GM_ADDR y) {
  api_double(x, y);
  reinterpret_cast<float*>(y)[kN + 4096] = 1.0f;
}

// Reads its tiling blob through the plain pointer, as device kernels do.
extern "C" __global__ __aicore__ void reads_tiling(GM_ADDR y, GM_ADDR tiling) {
  AscendC::GlobalTensor<float> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kN);
  out.SetValue(0, *reinterpret_cast<const float*>(tiling));
}

aoc::runtime::LaunchResult run(void (*k)(GM_ADDR, GM_ADDR), std::vector<float>& x, std::vector<float>& y,
                          uint32_t blocks = 1) {
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = blocks;
  return aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(k), {{x.data(), kN * 4, "x"}, {y.data(), kN * 4, "y"}});
}

}  // namespace

TEST(GmGuard, RawPointerComputeIsStoppedNamingTheBuffer) {
  std::vector<float> x(kN + 16, 1.0f), y(kN + 16, 0.0f);
  auto r = run(&raw_double, x, y, 3);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("kernel dereferenced GM through a raw pointer"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("buffer 'x'"), std::string::npos) << r.error;  // the first access reads x
  EXPECT_EQ(r.failed_block, 0);
  for (uint32_t i = 0; i < kN; ++i) EXPECT_EQ(y[i], 0.0f);  // nothing reached the real output
}

TEST(GmGuard, TheSameWorkThroughTheApiRunsAndIsTraced) {
  std::vector<float> x(kN + 16, 1.5f), y(kN + 16, 0.0f);
  auto r = run(&api_double, x, y);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t i = 0; i < kN; ++i) EXPECT_EQ(y[i], 3.0f);
  ASSERT_EQ(r.cores.size(), 1u);
  size_t gm_scalar = 0;
  for (const auto& rec : r.cores[0].trace.records)
    for (uint32_t k = 0; k < rec.nreads; ++k) gm_scalar += rec.reads[k].space == aoc::Space::GM;
  EXPECT_GE(gm_scalar, kN);
  // The trace holds the real addresses, as before the guard existed.
  bool real = false;
  for (const auto& rec : r.cores[0].trace.records)
    for (uint32_t k = 0; k < rec.nreads; ++k) real = real || rec.reads[k].lo == reinterpret_cast<uint64_t>(x.data());
  EXPECT_TRUE(real);
}

TEST(GmGuard, RawWritePastTheEndIsDetected) {
  std::vector<float> x(kN + 16, 1.0f), y(kN + 16, 0.0f);
  auto r = run(&raw_overrun, x, y);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("write to"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("past the end of buffer 'y'"), std::string::npos) << r.error;
  // Launches after a stopped one work normally.
  auto again = run(&api_double, x, y);
  EXPECT_TRUE(again.ok) << again.error;
}

TEST(GmGuard, DirectArgumentsKeepTheirRealAddress) {
  std::vector<float> y(kN, 0.0f);
  float tiling = 7.25f;
  aoc::runtime::LaunchConfig cfg;
  auto r = aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&reads_tiling),
                                  {{y.data(), kN * 4, "y"}, {&tiling, sizeof(tiling), "tiling", true}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(y[0], 7.25f);
}

TEST(GmGuard, KernelAddressesKeepTheLowBitsOfTheRealOnes) {
  std::vector<float> a(100);
  aoc::runtime::GmGuard g({{a.data() + 3, 40, "a"}, {nullptr, 0, "none"}});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(g.kernel_address(0)) % 4096, reinterpret_cast<uintptr_t>(a.data() + 3) % 4096);
  EXPECT_EQ(g.kernel_address(1), nullptr);
  const auto alloc = aoc::GmRegistry::instance().find(g.kernel_address(0));
  EXPECT_EQ(alloc.hi - alloc.lo, 40u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(g.kernel_address(0)) + alloc.delta, reinterpret_cast<uintptr_t>(a.data() + 3));
}

namespace {
void fault_outside_the_guard() {
  std::vector<float> x(kN), y(kN);
  (void)run(&api_double, x, y);  // installs the handler
  volatile int* p = nullptr;
  *p = 1;
}
}  // namespace

TEST(GmGuardDeathTest, OtherFaultsStillCrashTheProcess) {
  // A segfault outside the guarded ranges is not swallowed: the process dies of SIGSEGV.
  EXPECT_EXIT(fault_outside_the_guard(), ::testing::KilledBySignal(SIGSEGV), "");
}
