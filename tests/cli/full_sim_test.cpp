// `--full-sim`: eval times a loop whose simulated state repeats by skipping the repeats, and
// --full-sim times every instruction; both give the same Task Duration.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace {

// reduce_sum's single long row runs on one core, a loop the engine skips most of.
nlohmann::json eval_long_row(const std::string& extra) {
  const auto r = aoc::testing::run_ascendopt("eval " + std::string(AOC_SOURCE_DIR) +
                                                 "/ops/reduction/reduce_sum --case rank1_fp32_long_row --json "
                                                 "--no-store --seed 1 -j 1 " + extra,
                                             /*merge_stderr=*/false);
  EXPECT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j.is_discarded() ? nlohmann::json() : j.at("candidates").at(0).at("cases").at(0);
}

TEST(FullSim, EvalSkipsRepeatsUnlessAskedAndTheTimesAgree) {
  const auto skipping = eval_long_row("");
  const auto full = eval_long_row("--full-sim");
  ASSERT_TRUE(skipping.is_object() && full.is_object());
  EXPECT_GT(skipping.at("skipped_instructions").get<uint64_t>(), 0u);
  EXPECT_EQ(full.at("skipped_instructions").get<uint64_t>(), 0u);
  const double a = skipping.at("task_duration_us").get<double>(), b = full.at("task_duration_us").get<double>();
  EXPECT_NEAR(a, b, 1e-9 * b);
}

TEST(FullSim, EveryTimingCommandOffersIt) {
  for (const char* cmd : {"eval", "run", "calibrate"}) {
    const auto r = aoc::testing::run_ascendopt(std::string(cmd) + " --help");
    EXPECT_NE(r.out.find("--full-sim"), std::string::npos) << cmd << ": " << r.out;
  }
}

}  // namespace
