// The best of an optimize run is a drop-in operator: its tiling configuration is written into
// its sources (rewrite/pin_config.h), so the sources alone, evaluated with no configuration,
// run exactly as the tuner ran the original with it; a configuration the sources cannot take
// is refused with the reason, and `ascendopt eval` of a run's best/ gives the reported time.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "cli_support.h"
#include "eval/candidate_eval.h"
#include "optimize/small_package.h"
#include "rewrite/pin_config.h"
#include "scratch_dir.h"
#include "search/evaluator.h"
#include "tune/tuner.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSrc = AOC_SOURCE_DIR;
const fs::path kRelu = kSrc / "ops" / "activation" / "relu";

std::string header_hash() { return aoc::base::tree_hash(kSrc / "include" / "ascendc"); }

// The simulated time of `cand` under `config` on relu's aligned_2d_fp16 case.
double time_of(const aoc::eval::Candidate& cand, const aoc::eval::TuningConfig& config) {
  aoc::build::Builder builder(aoc::build::default_builder_options());
  auto opt = aoc::eval::default_candidate_eval_options();
  opt.seed = 3;
  aoc::search::GatedScoring scoring = aoc::tune::tuning_scoring(cand, builder, opt, {"aligned_2d_fp16"}, /*gate=*/false);
  aoc::search::Evaluator ev(scoring, 1);
  const auto kernel = std::make_shared<const aoc::search::Kernel>(aoc::search::Kernel{cand, {}, {}});
  const auto r = ev.request({kernel, config}, "run", std::nullopt);
  EXPECT_TRUE(r.scored && r.scored->eval.valid) << (r.scored ? r.scored->eval.reason : "no answer");
  return r.scored ? r.scored->eval.time_us : 0;
}

TEST(BestFolder, PinnedSourcesRunAsTheConfigurationDid) {
  aoc::testing::ScratchDir tmp("best-folder");
  fs::copy(kRelu, tmp.path() / "relu", fs::copy_options::recursive);
  const auto original = aoc::eval::load_candidate(kRelu, header_hash());
  aoc::eval::TuningConfig config;
  config.cores = 8;
  config.ub_bytes = 96 * 1024;
  config.knobs["tile_cap"] = 1024;
  config.knobs["split_unit_bytes"] = 256;

  const auto copy = aoc::eval::load_candidate(tmp.path() / "relu", header_hash());
  const auto pin = aoc::rewrite::pin_configuration(copy, copy.sources, config, /*coupled=*/false);
  ASSERT_TRUE(pin.pinned) << pin.message;
  EXPECT_EQ(pin.message,
            "core count capped at 8, UB budget capped at 98304 B, knob split_unit_bytes defaults to 256, knob tile_cap "
            "defaults to 1024");
  const std::string host = aoc::base::read_text(tmp.path() / "relu" / "op_host" / "relu.cpp");
  EXPECT_NE(host.find("std::min<uint32_t>(ascendcPlatform.GetCoreNumAiv(), 8U)"), std::string::npos) << host;
  EXPECT_NE(host.find("ubSize = std::min<uint64_t>(ubSize, 98304UL)"), std::string::npos) << host;
  EXPECT_NE(host.find("tuning::Knob(\"tile_cap\", 1024,"), std::string::npos) << host;
  EXPECT_NE(host.find("#include <algorithm>"), std::string::npos) << host;

  const double tuned = time_of(original, config);
  const double pinned = time_of(aoc::eval::load_candidate(tmp.path() / "relu", header_hash()), {});
  EXPECT_EQ(pinned, tuned) << "the pinned sources with no configuration run as the original with it";
  EXPECT_NE(pinned, time_of(original, {})) << "and not as the original's defaults";
}

TEST(BestFolder, AConfigurationTheSourcesCannotTakeIsRefusedWithTheReason) {
  aoc::testing::ScratchDir tmp("best-folder");
  fs::copy(kRelu, tmp.path() / "relu", fs::copy_options::recursive);
  const auto copy = aoc::eval::load_candidate(tmp.path() / "relu", header_hash());
  const std::string before = aoc::base::read_text(tmp.path() / "relu" / "op_host" / "relu.cpp");

  aoc::eval::TuningConfig unknown;
  unknown.knobs["rows_per_tile"] = 4;
  auto pin = aoc::rewrite::pin_configuration(copy, copy.sources, unknown, false);
  EXPECT_FALSE(pin.pinned);
  EXPECT_EQ(pin.message, "no tuning::Knob or KnobRange call with the literal name \"rows_per_tile\" in the sources");
  EXPECT_EQ(aoc::base::read_text(tmp.path() / "relu" / "op_host" / "relu.cpp"), before) << "nothing is written";

  // A tiling that reserves UB for the framework reads less than the budget: a cap on what it
  // reads would not be the budget the tuner set.
  const fs::path host = tmp.path() / "relu" / "op_host" / "relu.cpp";
  std::string text = before;
  const std::string read = "ascendcPlatform.GetCoreMemSize(";
  const size_t at = text.find(read);
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "ascendcPlatform.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_8K);\n    ");
  aoc::base::write_text(host, text);
  aoc::eval::TuningConfig ub;
  ub.ub_bytes = 64 * 1024;
  pin = aoc::rewrite::pin_configuration(aoc::eval::load_candidate(tmp.path() / "relu", header_hash()), copy.sources, ub,
                                        false);
  EXPECT_FALSE(pin.pinned);
  EXPECT_NE(pin.message.find("reserves part of UB"), std::string::npos) << pin.message;
  EXPECT_NE(pin.message.find("relu.cpp:"), std::string::npos) << pin.message;
  EXPECT_EQ(aoc::base::read_text(host), text);

  EXPECT_TRUE(aoc::rewrite::pin_configuration(copy, copy.sources, {}, false).pinned) << "the defaults need no edit";
}

// A whole run: plain `eval` of best/ gives the time optimize reported for it.
TEST(BestFolder, PlainEvalOfARunsBestGivesTheReportedTime) {
  aoc::testing::ScratchDir tmp("best-folder");
  const fs::path relu = aoc::testing::small_package_copy(kRelu, tmp.path() / "relu");
  const fs::path out = tmp.path() / "run";
  const auto r = aoc::testing::run_ascendopt("optimize " + relu.string() +
                                                 " --method tune-only --budget 4 --seed 5 --case aligned_2d_fp16 "
                                                 "--no-store --json --out " +
                                                 out.string(),
                                             false);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto report = nlohmann::json::parse(r.out);
  const auto& best = report.at("best");
  ASSERT_TRUE(best.at("config").at("cores").get<int>() > 0 || !best.at("config").at("knobs").empty() ||
              best.at("config").at("ub_bytes").get<int>() > 0)
      << "the run should end on a configuration other than the defaults: " << best.dump();
  EXPECT_TRUE(best.at("config_in_sources").get<bool>()) << best.at("config_pinning");
  EXPECT_NE(aoc::base::read_text(out / "best" / "candidate.toml").find("written into its sources"), std::string::npos);

  // The speed over every performance case, case by case, beside the evaluation case's.
  const auto& perf = report.at("perf_cases");
  ASSERT_EQ(perf.size(), 4u) << report.dump();
  double log_sum = 0;
  for (const auto& c : perf) log_sum += std::log(c.at("speedup").get<double>());
  EXPECT_NEAR(report.at("perf_speedup").get<double>(), std::exp(log_sum / 4), 1e-12);
  EXPECT_NE(aoc::base::read_text(out / "summary.txt").find("over every performance case (4 case(s)"), std::string::npos);

  const auto e = aoc::testing::run_ascendopt("eval " + (out / "best").string() +
                                                 " --case aligned_2d_fp16 --case resnet50_layer3_b1 --seed 5 --no-store "
                                                 "--json -j 1",
                                             false);
  ASSERT_EQ(e.status, 0) << e.out;
  const auto ej = nlohmann::json::parse(e.out);
  const auto& cases = ej.at("candidates").at(0).at("cases");
  ASSERT_EQ(cases.size(), 2u);
  for (const auto& c : cases) {
    EXPECT_EQ(c.at("verdict"), "ok");
    const double t = c.at("task_duration_us").get<double>();
    if (c.at("name") == "aligned_2d_fp16") EXPECT_DOUBLE_EQ(t, report.at("best_us").get<double>());
    for (const auto& p : perf)
      if (p.at("case") == c.at("name")) EXPECT_DOUBLE_EQ(t, p.at("best_us").get<double>());
  }
}

}  // namespace
