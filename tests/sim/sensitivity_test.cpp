// The SoC parameters --sensitivity moves: named as in the SoC file, and each move reaches the model.
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include "sim/sensitivity.h"

using namespace aoc::sim;

TEST(Sensitivity, KnobsAreSocFileKeysAndScaleTheirParameter) {
  const Soc soc = load_soc("Ascend910B1");
  const toml::table file = toml::parse_file(soc.source_path);
  const auto knobs = soc_knobs(soc);
  ASSERT_GT(knobs.size(), 20u);
  for (const auto& k : knobs) {
    if (k.key.find(' ') != std::string::npos) continue;  // "vector.table (every curve)": a whole table
    EXPECT_TRUE(file.at_path(k.key)) << k.key << " is not a key of " << soc.source_path;
    EXPECT_TRUE(k.factor == 1.1 || k.factor == 0.9) << k.key;
  }
  for (const auto& k : knobs) {
    if (k.key != "launch.block_start_cycles" && k.key != "paths.gm_to_ub.latency_cycles" &&
        k.key != "bandwidth.rw_mix_efficiency")
      continue;
    Soc moved = soc;
    k.scale(moved, k.factor);
    if (k.key == "launch.block_start_cycles")
      EXPECT_DOUBLE_EQ(moved.launch_block_start_cycles, soc.launch_block_start_cycles * 1.1);
    if (k.key == "paths.gm_to_ub.latency_cycles")
      EXPECT_DOUBLE_EQ(moved.path("gm_to_ub").latency_cycles, soc.path("gm_to_ub").latency_cycles * 1.1);
    if (k.key == "bandwidth.rw_mix_efficiency") EXPECT_DOUBLE_EQ(moved.rw_mix_efficiency, soc.rw_mix_efficiency * 0.9);
  }
}
