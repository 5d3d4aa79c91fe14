// The launcher: block-dependent results on 48 cores, SyncAll ordering, failures reported
// with their block and kernel line, MIX sub-blocks, tiling keys and ICPU_RUN_KF.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kernel_operator.h"
#include "aoc/launch.h"
#include "tikicpulib.h"

namespace {

constexpr int kLen = 16;

// Each block fills its own slice with blockIdx*100 + i.
extern "C" __global__ __aicore__ void fill_by_block(GM_ADDR out, GM_ADDR workspace) {
  AscendC::GlobalTensor<int32_t> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out) + AscendC::GetBlockIdx() * kLen, kLen);
  for (int i = 0; i < kLen; ++i) gm.SetValue(i, static_cast<int32_t>(AscendC::GetBlockIdx() * 100 + i));
}

// Phase 1 writes own slot; SyncAll; phase 2 reads the neighbour's slot (written by another block).
extern "C" __global__ __aicore__ void neighbour_sum(GM_ADDR buf, GM_ADDR out) {
  AscendC::GlobalTensor<int32_t> b, o;
  b.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(buf));
  o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  int64_t me = AscendC::GetBlockIdx(), n = AscendC::GetBlockNum();
  b.SetValue(me, static_cast<int32_t>(me + 1));
  AscendC::SyncAll();
  o.SetValue(me, b.GetValue(me) + b.GetValue((me + 1) % n));
}

int g_error_line = 0;
std::vector<int64_t> g_ran;
extern "C" __global__ __aicore__ void fails_in_block5(GM_ADDR out) {
  g_ran.push_back(AscendC::GetBlockIdx());
  AscendC::GlobalTensor<int32_t> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 8);
  if (AscendC::GetBlockIdx() == 5) {
    g_error_line = __LINE__ + 1;
    aoc::fail("SetValue", std::source_location::current(), "index out of range");
  }
  gm.SetValue(AscendC::GetBlockIdx(), 1);
}

}  // namespace

TEST(Launcher, FortyEightBlocksComputeBlockDependentOutput) {
  std::vector<int32_t> out(48 * kLen, -1);
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 48;
  auto r = aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&fill_by_block),
                                  {{out.data(), out.size() * 4, "out"}, {nullptr, 0, "workspace"}});
  ASSERT_TRUE(r.ok) << r.error;
  for (int b = 0; b < 48; ++b)
    for (int i = 0; i < kLen; ++i) ASSERT_EQ(out[b * kLen + i], b * 100 + i);
  ASSERT_EQ(r.cores.size(), 48u);
  EXPECT_EQ(r.cores[7].block_idx, 7);
  EXPECT_EQ(r.cores[7].core_type, AscendC::AIV);
  // The buffer was registered only for the launch.
  EXPECT_EQ(aoc::GmRegistry::instance().find(out.data()).hi, 0u);
}

// Waking a sleeping thread per core cost more than simulating a small case on a busy machine:
// without SyncAll one thread runs every core; with it, each core that waits keeps a thread.
TEST(Launcher, CoresWithoutSyncAllShareOneThread) {
  std::set<std::thread::id> threads;
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 48;
  auto r = aoc::runtime::launch(cfg, [&] { threads.insert(std::this_thread::get_id()); });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(threads.size(), 1u);
  EXPECT_EQ(r.cores.size(), 48u);

  threads.clear();
  std::vector<int64_t> after_sync;
  r = aoc::runtime::launch(cfg, [&] {
    threads.insert(std::this_thread::get_id());
    AscendC::SyncAll();
    after_sync.push_back(AscendC::GetBlockIdx());
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(threads.size(), 48u);
  EXPECT_EQ(after_sync.size(), 48u);
}

// Registers kept in thread-locals start fresh on every core, as on separate cores, even when
// one thread runs the cores one after the other.
TEST(Launcher, PerCoreRegistersStartFreshOnEveryCore) {
  std::vector<uint8_t> ws(64);
  std::vector<bool> workspace_seen;
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 4;
  auto r = aoc::runtime::launch(cfg, [&] {
    workspace_seen.push_back(AscendC::GetSysWorkSpacePtr() != nullptr);
    AscendC::SetSysWorkSpace(reinterpret_cast<GM_ADDR>(ws.data()));
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(workspace_seen, (std::vector<bool>{false, false, false, false}));
}

TEST(Launcher, BlocksRunOneAtATimeInBlockOrder) {
  std::vector<int64_t> order;
  std::atomic<int> running{0};
  bool overlap = false;
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 8;
  auto r = aoc::runtime::launch(cfg, [&] {
    if (running.fetch_add(1) != 0) overlap = true;
    order.push_back(AscendC::GetBlockIdx());
    running.fetch_sub(1);
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(overlap);
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(Launcher, SyncAllMakesEveryBlocksFirstPhaseVisible) {
  constexpr int n = 12;
  std::vector<int32_t> buf(n, 0), out(n, 0);
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = n;
  auto r = aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&neighbour_sum),
                                  {{buf.data(), n * 4, "buf"}, {out.data(), n * 4, "out"}});
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], (i + 1) + ((i + 1) % n + 1)) << i;
}

TEST(Launcher, SyncAllSkippedByOneBlockIsADeadlock) {
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 4;
  auto r = aoc::runtime::launch(cfg, [] {
    if (AscendC::GetBlockIdx() != 2) AscendC::SyncAll();
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("SyncAll deadlock"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("block 2 (AIV)"), std::string::npos) << r.error;
}

TEST(Launcher, ErrorInBlockFiveStopsTheLaunchWithBlockAndLine) {
  std::vector<int32_t> out(8, 0);
  g_ran.clear();
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 8;
  auto r = aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&fails_in_block5), {{out.data(), 32, "out"}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.failed_block, 5);
  EXPECT_EQ(r.failed_core_type, AscendC::AIV);
  EXPECT_EQ(r.failed_api, "SetValue");
  EXPECT_EQ(r.failed_line, static_cast<unsigned>(g_error_line));
  EXPECT_NE(r.failed_file.find("launcher_test.cpp"), std::string::npos);
  EXPECT_EQ(r.error.rfind("block 5 (AIV): ", 0), 0u) << r.error;
  EXPECT_EQ(out[4], 1);
  EXPECT_EQ(out[5], 0);
  EXPECT_EQ(g_ran, (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));  // blocks 6, 7 never start
}

TEST(Launcher, MixModeRunsOneCubeAndTwoVectorCoresPerBlock) {
  struct Seen {
    int32_t type;
    int64_t idx, raw, sub, num, ratio;
  };
  std::vector<Seen> seen;
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 3;
  cfg.mode = aoc::runtime::CoreMode::MIX;
  auto r = aoc::runtime::launch(cfg, [&] {
    seen.push_back({g_coreType, AscendC::GetBlockIdx(), block_idx, AscendC::GetSubBlockIdx(), AscendC::GetBlockNum(),
                    AscendC::GetTaskRation()});
    if ASCEND_IS_AIV {
      AscendC::SyncAll();  // AIV-only SyncAll: cube cores stay out
    }
  });
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(seen.size(), 9u);
  for (int g = 0; g < 3; ++g) {
    const Seen& c = seen[3 * g];
    EXPECT_EQ(c.type, AscendC::AIC);
    EXPECT_EQ(c.idx, g);
    const Seen& v0 = seen[3 * g + 1];
    const Seen& v1 = seen[3 * g + 2];
    EXPECT_EQ(v0.type, AscendC::AIV);
    EXPECT_EQ(v0.idx, 2 * g);
    EXPECT_EQ(v1.idx, 2 * g + 1);
    EXPECT_EQ(v0.raw, g);
    EXPECT_EQ(v1.raw, g);
    EXPECT_EQ(v0.sub, 0);
    EXPECT_EQ(v1.sub, 1);
    EXPECT_EQ(v1.ratio, 2);
    EXPECT_EQ(v1.num, 3);
  }
  EXPECT_EQ(r.cores.size(), 9u);
}

TEST(Launcher, TilingKeyKernelTypeAndTracesReachTheResult) {
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 2;
  cfg.tiling_key = 7;
  std::vector<int> branch;
  auto r = aoc::runtime::launch(cfg, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(3)) {
      branch.push_back(3);
    } else if (TILING_KEY_IS(7)) {
      branch.push_back(7);
    }
    aoc::core().trace.append(aoc::RecKind::Scalar, aoc::Pipe::S, "Probe", std::source_location::current());
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(branch, (std::vector<int>{7, 7}));
  EXPECT_EQ(r.kernel_type, KERNEL_TYPE_AIV_ONLY);
  ASSERT_EQ(r.cores.size(), 2u);
  ASSERT_EQ(r.cores[1].trace.records.size(), 1u);
  EXPECT_STREQ(r.cores[1].trace.records[0].op, "Probe");
}

TEST(Launcher, CoresGetTheConfiguredLocalMemory) {
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = 2;
  cfg.limits.ub_bytes = 96 * 1024;
  std::vector<uint32_t> ub;
  auto r = aoc::runtime::launch(cfg, [&] { ub.push_back(aoc::core().ub.size()); });
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(ub, (std::vector<uint32_t>{96 * 1024, 96 * 1024}));
}

namespace {
extern "C" __global__ __aicore__ void scale_by_key(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  auto* in = reinterpret_cast<float*>(x);
  auto* out = reinterpret_cast<float*>(y);
  uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
  int64_t b = AscendC::GetBlockIdx();
  float k = TILING_KEY_IS(2) ? 2.0f : 1.0f;
  for (uint32_t i = 0; i < n; ++i) out[b * n + i] = in[b * n + i] * k;
}
}  // namespace

TEST(Tikicpulib, RunKfOnGmAllocBuffers) {
  constexpr uint32_t blocks = 4, n = 8;
  auto* x = static_cast<uint8_t*>(AscendC::GmAlloc(blocks * n * sizeof(float)));
  auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(blocks * n * sizeof(float)));
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(uint32_t)));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x) % 512, 0u);
  EXPECT_EQ(aoc::GmRegistry::instance().find(x).hi - aoc::GmRegistry::instance().find(x).lo, blocks * n * 4);
  for (uint32_t i = 0; i < blocks * n; ++i) reinterpret_cast<float*>(x)[i] = static_cast<float>(i);
  *reinterpret_cast<uint32_t*>(tiling) = n;
  AscendC::SetKernelMode(AscendC::KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(2);
  ICPU_RUN_KF(scale_by_key, blocks, x, y, tiling);
  for (uint32_t i = 0; i < blocks * n; ++i) EXPECT_FLOAT_EQ(reinterpret_cast<float*>(y)[i], 2.0f * i);
  EXPECT_TRUE(aoc::runtime::icpu_last_result().ok);
  EXPECT_EQ(aoc::runtime::icpu_last_result().cores.size(), blocks);

  std::vector<uint8_t> not_gm(64);
  EXPECT_THROW(ICPU_RUN_KF(scale_by_key, blocks, x, not_gm.data(), tiling), std::invalid_argument);
  ICPU_SET_TILING_KEY(0);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(tiling);
  EXPECT_EQ(aoc::GmRegistry::instance().find(x).hi, 0u);
  EXPECT_THROW(AscendC::GmFree(not_gm.data()), std::invalid_argument);
}

namespace {
extern "C" __global__ __aicore__ void oob_write(GM_ADDR y) {
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 1024);
  gm.SetValue(AscendC::GetBlockIdx() * 16, 1.0f);
}
}  // namespace

TEST(Tikicpulib, FailedRunThrowsLaunchError) {
  // 16 bytes, padded by the runtime to 64: room for block 0 only (block 1 writes bytes 64..67)
  auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(16));
  AscendC::SetKernelMode(AscendC::KernelMode::AIV_MODE);
  try {
    ICPU_RUN_KF(oob_write, 3, y);
    ADD_FAILURE() << "expected LaunchError";
  } catch (const aoc::runtime::LaunchError& e) {
    EXPECT_EQ(e.result().failed_block, 1) << e.what();
  }
  AscendC::GmFree(y);
}
