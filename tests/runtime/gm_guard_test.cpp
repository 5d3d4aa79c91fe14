// GM as the device has it: a kernel that computes with plain C++ through the raw GM pointers it
// receives runs, each access traced and charged as the scalar GM access it is (as GetValue /
// SetValue); a raw access past a buffer's end stops with a clear error naming the buffer.
#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <string>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "kernel_operator.h"
#include "aoc/launch.h"
#include "runtime/gm_guard.h"

namespace {

constexpr uint32_t kN = 64;

// y = 2x computed element by element through raw pointers, no API call.
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

// Copies x to y with one library call through raw pointers (string or vector instructions that
// read one buffer and write another).
extern "C" __global__ __aicore__ void raw_memcpy(GM_ADDR x, GM_ADDR y) { std::memcpy(y, x, kN * 4); }

// Adds one to each int in place: a read-modify-write of the same bytes.
extern "C" __global__ __aicore__ void raw_increment(GM_ADDR x, GM_ADDR) {
  auto* v = reinterpret_cast<volatile int32_t*>(x);
  for (uint32_t i = 0; i < kN; ++i) v[i] = v[i] + 1;
}

// One float into the runtime's padding after y (bytes [256, 288) of a 256-byte buffer).
extern "C" __global__ __aicore__ void raw_padding_write(GM_ADDR, GM_ADDR y) { reinterpret_cast<float*>(y)[kN] = 5.0f; }

#if defined(__x86_64__)
// A 16-byte store that starts inside y's padding and ends 8 bytes past it.
extern "C" __global__ __aicore__ void raw_straddling_store(GM_ADDR, GM_ADDR y) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(y + kN * 4 + 24), _mm_set1_epi32(-1));
}
#endif

// Scalar GM accesses charged in the core's trace: (reads, writes), each record's count split by
// its kind. Folded records carry both kinds; they count as the kind of their write range.
std::pair<uint64_t, uint64_t> scalar_gm_accesses(const aoc::runtime::CoreRun& core) {
  uint64_t reads = 0, writes = 0;
  for (const auto& rec : core.trace.records) {
    if (rec.kind != aoc::RecKind::Scalar || rec.elems == 0) continue;
    const bool gm_read = rec.nreads > 0 && rec.reads[0].space == aoc::Space::GM;
    const bool gm_write = rec.has_write && rec.write.space == aoc::Space::GM;
    if (gm_read && !gm_write) reads += rec.elems;
    else if (gm_write && !gm_read) writes += rec.elems;
    else if (gm_read && gm_write) reads += rec.elems;  // both: counted once
  }
  return {reads, writes};
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

TEST(GmGuard, RawPointerComputeRunsAndEveryAccessIsCharged) {
  std::vector<float> x(kN + 16, 1.25f), y(kN + 16, 0.0f);
  auto r = run(&raw_double, x, y, 3);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(y[i], 2.5f) << i;
  ASSERT_EQ(r.cores.size(), 3u);
  for (const auto& core : r.cores) {
    // kN loads and kN stores per core, at the real addresses of x and y.
    uint64_t accesses = 0;
    bool reads_x = false, writes_y = false;
    const auto x_lo = reinterpret_cast<uint64_t>(x.data()), y_lo = reinterpret_cast<uint64_t>(y.data());
    for (const auto& rec : core.trace.records) {
      if (rec.kind != aoc::RecKind::Scalar) continue;
      accesses += rec.elems;
      for (uint32_t k = 0; k < rec.nreads; ++k)
        reads_x = reads_x || (rec.reads[k].lo >= x_lo && rec.reads[k].hi <= x_lo + kN * 4);
      writes_y = writes_y || (rec.has_write && rec.write.lo >= y_lo && rec.write.hi <= y_lo + kN * 4);
    }
    EXPECT_EQ(accesses, 2 * kN);
    EXPECT_TRUE(reads_x);
    EXPECT_TRUE(writes_y);
  }
}

TEST(GmGuard, ARawAccessCostsWhatGetValueAndSetValueCost) {
  std::vector<float> x(kN + 16, 1.0f), y(kN + 16, 0.0f);
  auto raw = run(&raw_double, x, y);
  auto api = run(&api_double, x, y);
  ASSERT_TRUE(raw.ok && api.ok) << raw.error << api.error;
  uint64_t raw_elems = 0, api_elems = 0;
  for (const auto& rec : raw.cores[0].trace.records) raw_elems += rec.kind == aoc::RecKind::Scalar ? rec.elems : 0;
  for (const auto& rec : api.cores[0].trace.records) api_elems += rec.kind == aoc::RecKind::Scalar ? rec.elems : 0;
  EXPECT_EQ(raw_elems, api_elems);
}

TEST(GmGuard, LibraryCopiesAndReadModifyWritesThroughRawPointersRun) {
  std::vector<float> x(kN + 16), y(kN + 16, 0.0f);
  for (uint32_t i = 0; i < kN; ++i) x[i] = float(i) * 0.5f;
  auto r = run(&raw_memcpy, x, y);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(y[i], x[i]) << i;
  EXPECT_EQ(y[kN], 0.0f);  // nothing past the copy
  const auto [reads, writes] = scalar_gm_accesses(r.cores[0]);
  EXPECT_GT(reads + writes, 0u);

  std::vector<int32_t> v(kN + 16);
  for (uint32_t i = 0; i < kN; ++i) v[i] = int32_t(i);
  std::vector<int32_t> unused(kN + 16);
  aoc::runtime::LaunchConfig cfg;
  auto inc = aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&raw_increment),
                                         {{v.data(), kN * 4, "v"}, {unused.data(), kN * 4, "unused"}});
  ASSERT_TRUE(inc.ok) << inc.error;
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(v[i], int32_t(i) + 1) << i;
  EXPECT_EQ(v[kN], 0);
}

TEST(GmGuard, ARawWriteIntoThePaddingIsToleratedWithAWarning) {
  std::vector<float> x(kN + 16, 1.0f), y(kN + 16, 0.0f);
  auto r = run(&raw_padding_write, x, y);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(y[kN], 5.0f);
  bool warned = false;
  for (const auto& [msg, n] : r.warnings) warned = warned || msg.find("padding of GM buffer 'y'") != std::string::npos;
  EXPECT_TRUE(warned);
}

#if defined(__x86_64__)
TEST(GmGuard, ARawStorePastThePaddingIsRefusedAndReachesNoByte) {
  std::vector<float> x(kN + 16, 1.0f), y(kN + 16, 0.0f);
  auto r = run(&raw_straddling_store, x, y);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("bytes past the end of buffer 'y'"), std::string::npos) << r.error;
  for (uint32_t i = 0; i < kN + 16; ++i) EXPECT_EQ(y[i], 0.0f) << i;  // not even the in-bounds half
}
#endif

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
  EXPECT_NE(r.error.find("wrote to GM through a raw pointer"), std::string::npos) << r.error;
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
