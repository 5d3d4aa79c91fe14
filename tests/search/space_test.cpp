// The search space: platform dimensions within the SoC, knob dimensions from declarations,
// the default point as the empty configuration, repair and the validity check.
#include <gtest/gtest.h>

#include "runtime/platform.h"
#include "search/space.h"

namespace {

using aoc::eval::KnobDecl;
using aoc::search::make_space;

aoc::host::PlatformConfig soc() {
  aoc::host::PlatformConfig p;
  p.aiv_cores = 48;
  p.ub_bytes = 192 * 1024;
  return p;
}

std::vector<KnobDecl> decls() {
  return {{"split_unit_bytes", 32, false, {512, 32, 64, 32}, 3}, {"tile_cap", 0, true, {0, 4096, 1024}, 1}};
}

TEST(Space, DimensionsFromTheDeclarationsAndTheSoc) {
  const auto s = aoc::search::make_space(decls(), soc());
  ASSERT_EQ(s.dims.size(), 4u);
  EXPECT_EQ(s.dims[0].name, "cores");
  EXPECT_EQ(s.dims[0].values.front(), 1);
  EXPECT_EQ(s.dims[0].values.back(), 48);
  EXPECT_EQ(s.dims[1].name, "ub_bytes");
  EXPECT_EQ(s.dims[1].values.back(), 192 * 1024);
  for (int64_t v : s.dims[1].values) EXPECT_EQ(v % 32, 0);
  EXPECT_EQ(s.dims[2].name, "split_unit_bytes");
  EXPECT_EQ(s.dims[2].values, (std::vector<int64_t>{32, 64, 512}));  // sorted, distinct
  EXPECT_EQ(s.dims[3].values, (std::vector<int64_t>{0, 1024, 2048, 3072, 4096}));
  EXPECT_EQ(s.dims[3].role, aoc::search::Role::TileSize);
  EXPECT_TRUE(s.config(s.defaults()).empty());
  EXPECT_EQ(s.check(s.defaults()), "");
}

TEST(Space, ConfigurationAndRepair) {
  const auto s = aoc::search::make_space(decls(), soc());
  auto p = s.defaults();
  p[0] = 3;  // 4 cores
  p[3] = 2;  // 2048
  const auto c = s.config(p);
  EXPECT_EQ(c.cores, 4u);
  EXPECT_EQ(c.ub_bytes, 0u);
  EXPECT_EQ(c.knobs.size(), 1u);
  EXPECT_EQ(c.knobs.at("tile_cap"), 2048);
  EXPECT_EQ(s.repair(c), p);

  // Values from elsewhere snap to the nearest legal ones; unknown knobs are dropped.
  aoc::eval::TuningConfig odd;
  odd.cores = 500;
  odd.ub_bytes = 40000;
  odd.knobs = {{"tile_cap", 2500}, {"split_unit_bytes", 300}, {"gone", 7}};
  const auto r = s.repair(odd);
  EXPECT_EQ(s.check(r), "");
  EXPECT_EQ(s.dims[0].values[r[0]], 48);
  EXPECT_EQ(s.dims[1].values[r[1]], 32 * 1024);
  EXPECT_EQ(s.dims[2].values[r[2]], 512);
  EXPECT_EQ(s.dims[3].values[r[3]], 2048);
}

TEST(Space, CheckAndBadDeclarations) {
  const auto s = aoc::search::make_space(decls(), soc());
  auto p = s.defaults();
  p[2] = 9;
  EXPECT_NE(s.check(p), "");
  EXPECT_NE(s.check({0, 0}), "");
  EXPECT_THROW(aoc::search::make_space({{"k", 5, false, {1, 2}, 0}}, soc()), std::invalid_argument);          // default not a value
  EXPECT_THROW(aoc::search::make_space({{"k", 0, true, {0, 10, 0}, 0}}, soc()), std::invalid_argument);       // step 0
  EXPECT_THROW(aoc::search::make_space({{"k", 0, true, {0, 100000, 1}, 0}}, soc()), std::invalid_argument);   // too many values
  EXPECT_THROW(aoc::search::make_space({{"cores", 1, false, {1}, 0}}, soc()), std::invalid_argument);         // reserved name
}

TEST(Space, PlatformOverridesStayWithinTheSoc) {
  // The core count a coupled part reports is its AI Core count.
  aoc::host::PlatformConfig coupled = soc();
  coupled.separated = false;
  coupled.aic_cores = 8;
  const auto s = aoc::search::make_space({}, coupled);
  EXPECT_EQ(s.dims[0].values.back(), 8);

  // What the child hands PlatformAscendC: only ever less than the SoC has.
  const auto p = aoc::runtime::with_overrides(soc(), 12, 64 * 1024);
  EXPECT_EQ(p.aiv_cores, 12u);
  EXPECT_EQ(p.ub_bytes, 64u * 1024);
  EXPECT_EQ(aoc::runtime::with_overrides(coupled, 4, 0).aic_cores, 4u);
  EXPECT_THROW(aoc::runtime::with_overrides(soc(), 49, 0), std::invalid_argument);
  EXPECT_THROW(aoc::runtime::with_overrides(soc(), 0, 256 * 1024), std::invalid_argument);
  EXPECT_THROW(aoc::runtime::with_overrides(soc(), 0, 1000), std::invalid_argument);  // not 32 B aligned
}

TEST(Space, PlatformNumbersTheTilingNeverReadsAreNoDimensions) {
  using aoc::eval::kPlatformReadsCores;
  using aoc::eval::kPlatformReadsUb;
  const auto both = aoc::search::make_space(decls(), soc(), kPlatformReadsCores | kPlatformReadsUb);
  EXPECT_GE(both.find("cores"), 0);
  EXPECT_GE(both.find("ub_bytes"), 0);
  const auto cores_only = aoc::search::make_space(decls(), soc(), kPlatformReadsCores);
  EXPECT_GE(cores_only.find("cores"), 0);
  EXPECT_LT(cores_only.find("ub_bytes"), 0);
  EXPECT_EQ(cores_only.dims.size(), both.dims.size() - 1);
  const auto none = aoc::search::make_space({}, soc(), 0);
  EXPECT_TRUE(none.dims.empty());
  EXPECT_EQ(none.size(), 1u);  // the operator's own configuration
}

}  // namespace
