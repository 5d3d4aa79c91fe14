// PlatformAscendC reports the 910B1 numbers by default and whatever config a context carries.
#include <gtest/gtest.h>

#include "aoc/host/tiling_context.h"
#include "tiling/platform/platform_ascendc.h"

using platform_ascendc::CoreMemType;

TEST(PlatformAscendC, Default910B1Numbers) {
  gert::TilingContext ctx(aoc::host::NodeDesc("Demo"));
  platform_ascendc::PlatformAscendC p(ctx.GetPlatformInfo());
  EXPECT_EQ(p.GetCoreNum(), 48u);
  EXPECT_EQ(p.GetCoreNumAiv(), 48u);
  EXPECT_EQ(p.GetCoreNumAic(), 24u);
  EXPECT_EQ(p.GetCoreNumVector(), 0u);
  uint64_t v = 0;
  p.GetCoreMemSize(CoreMemType::UB, v);
  EXPECT_EQ(v, 192u * 1024);
  p.GetCoreMemSize(CoreMemType::L1, v);
  EXPECT_EQ(v, 512u * 1024);
  p.GetCoreMemSize(CoreMemType::L0_A, v);
  EXPECT_EQ(v, 64u * 1024);
  p.GetCoreMemSize(CoreMemType::L0_C, v);
  EXPECT_EQ(v, 128u * 1024);
  p.GetCoreMemSize(CoreMemType::L2, v);
  EXPECT_EQ(v, 192ull * 1024 * 1024);
  p.GetCoreMemSize(CoreMemType::HBM, v);
  EXPECT_EQ(v, 64ull * 1024 * 1024 * 1024);
  p.GetCoreMemBw(CoreMemType::HBM, v);
  EXPECT_GT(v, 0u);
  p.GetCoreMemBw(CoreMemType::UB, v);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(p.GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
  EXPECT_EQ(p.GetLibApiWorkSpaceSize(), 16u * 1024 * 1024);
}

TEST(PlatformAscendC, ReserveLocalMemoryShrinksUb) {
  platform_ascendc::PlatformAscendC p;
  p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
  uint64_t ub = 0;
  p.GetCoreMemSize(CoreMemType::UB, ub);
  EXPECT_EQ(ub, (192u - 16u) * 1024);
}

TEST(PlatformAscendC, TschBlockDim) {
  platform_ascendc::PlatformAscendC p;
  EXPECT_EQ(p.CalcTschBlockDim(100, 0, 48), 48u);
  EXPECT_EQ(p.CalcTschBlockDim(10, 0, 48), 10u);
  EXPECT_EQ(p.CalcTschBlockDim(100, 24, 0), 24u);
  EXPECT_EQ(p.CalcTschBlockDim(100, 24, 48), 24u);
  EXPECT_EQ(p.CalcTschBlockDim(10, 24, 48), 5u);
  EXPECT_EQ(p.CalcTschNumBlocks(11, 24, 48), 6u);
}

TEST(PlatformAscendC, ContextConfigAndManagerFollowTheProcessPlatform) {
  aoc::host::PlatformConfig cfg;
  cfg.soc_version = "Ascend310P3";
  cfg.separated = false;
  cfg.aic_cores = 8;
  cfg.aiv_cores = 0;
  cfg.vector_cores = 7;
  gert::TilingContext ctx(aoc::host::NodeDesc("Demo"), cfg);
  platform_ascendc::PlatformAscendC p(ctx.GetPlatformInfo());
  EXPECT_EQ(p.GetCoreNum(), 8u);
  EXPECT_EQ(p.GetCoreNumAiv(), 8u);
  EXPECT_EQ(p.GetCoreNumVector(), 7u);
  EXPECT_EQ(p.GetSocVersion(), platform_ascendc::SocVersion::ASCEND310P);

  auto saved = aoc::host::current_platform();
  aoc::host::set_current_platform(cfg);
  EXPECT_EQ(platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic(), 8u);
  aoc::host::set_current_platform(saved);
  EXPECT_EQ(platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic(), 24u);
}

#include "runtime/platform.h"

TEST(PlatformSelection, SocFileBecomesTheProcessPlatform) {
  auto saved = aoc::host::current_platform();
  aoc::sim::Soc soc = aoc::runtime::select_soc("Ascend910B4");
  platform_ascendc::PlatformAscendC p;
  EXPECT_EQ(p.GetCoreNumAiv(), static_cast<uint32_t>(soc.aiv_cores));
  EXPECT_EQ(p.GetCoreNumAic(), static_cast<uint32_t>(soc.aic_cores));
  EXPECT_EQ(p.GetSocVersionName(), soc.name);
  uint64_t l2 = 0;
  p.GetCoreMemSize(CoreMemType::L2, l2);
  EXPECT_EQ(l2, soc.l2_bytes);
  EXPECT_EQ(aoc::host::current_platform().core_limits().ub_bytes, soc.limits.ub_bytes);
  aoc::host::set_current_platform(saved);
}
