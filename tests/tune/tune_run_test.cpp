// A real tune of a suite operator (relu) on one case: the declared knobs make the space,
// the budget is spent exactly, a knob value the tiling rejects is an invalid evaluation
// with its reason, the reported best passes every public case and a hidden draw, and a
// stored repository entry is where the next tune starts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "base/content_hash.h"
#include "eval/candidate_eval.h"
#include "tune/tuner.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::tune;

const fs::path kRelu = fs::path(AOC_SOURCE_DIR) / "ops" / "activation" / "relu";

aoc::search::KernelPtr kernel_of(aoc::eval::Candidate cand) {
  return std::make_shared<const aoc::search::Kernel>(aoc::search::Kernel{std::move(cand), {}, {}});
}

TuneOptions small_options(const fs::path& repo) {
  TuneOptions o;
  o.eval = aoc::eval::default_candidate_eval_options();
  o.search.budget = 5;
  o.search.seed = 11;
  o.tuning_cases = {"aligned_2d_fp16"};
  o.repository_file = repo;
  return o;
}

TEST(TuneRun, ReluSmallTuneIsVerifiedAndStartsFromTheRepository) {
  aoc::testing::ScratchDir tmp("tune-test");
  aoc::build::Builder builder(aoc::build::default_builder_options());
  const fs::path repo_file = tmp.path() / "repo.json";

  // A stored configuration for this key becomes the second seed of the search.
  TuneOptions o = small_options(repo_file);
  const fs::path inc = fs::path(AOC_SOURCE_DIR) / "include" / "ascendc";
  const auto cand = aoc::eval::load_candidate(kRelu, aoc::base::tree_hash(inc));
  const RepoKey key = repository_key(cand.package, o.tuning_cases, o.soc);
  RepoEntry stored;
  stored.config.knobs["tile_cap"] = 2048;
  stored.config.cores = 42;  // not a value of the cores dimension: repaired to the nearest (40)
  stored.time_us = 1e9;      // so any verified improvement replaces it
  stored.candidate_hash = cand.hash;
  ASSERT_TRUE(Repository(repo_file).store(key, stored));

  const TuneReport r = tune(kRelu, builder, o);
  EXPECT_EQ(r.search.history.size() - r.search.free_count(), 5u);
  EXPECT_GE(r.space.find("tile_cap"), 0);
  EXPECT_GE(r.space.find("split_unit_bytes"), 0);
  EXPECT_GE(r.space.find("cores"), 0);  // relu's tiling reads the core count and the UB size
  EXPECT_GE(r.space.find("ub_bytes"), 0);
  ASSERT_TRUE(r.repository_start);
  EXPECT_EQ(r.search.history[0].key, r.space.key(r.space.defaults()));
  EXPECT_NE(r.search.history[1].key.find("tile_cap=2048"), std::string::npos) << r.search.history[1].key;
  EXPECT_NE(r.search.history[1].key.find("cores=40"), std::string::npos) << r.search.history[1].key;
  EXPECT_TRUE(r.search.history[0].valid) << r.search.history[0].reason;
  EXPECT_GT(r.baseline_us, 0);
  EXPECT_LE(r.best_us, r.baseline_us);
  EXPECT_TRUE(r.verification.passed) << r.verification.message;
  if (!r.best.empty()) {
    const auto again = Repository(repo_file).lookup(key);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->config, r.best);
  }
}

TEST(TuneRun, RejectedConfigurationsAreInvalidEvaluationsWithReasons) {
  aoc::build::Builder builder(aoc::build::default_builder_options());
  const fs::path inc = fs::path(AOC_SOURCE_DIR) / "include" / "ascendc";
  const auto relu = kernel_of(aoc::eval::load_candidate(kRelu, aoc::base::tree_hash(inc)));
  auto opt = aoc::eval::default_candidate_eval_options();
  opt.seed = 3;
  aoc::search::GatedScoring scoring = tuning_scoring(relu->cand, builder, opt, {"aligned_2d_fp16"});

  aoc::eval::TuningConfig outside;
  outside.knobs["tile_cap"] = 3000;  // not in the declared list
  const aoc::search::Evaluation a = scoring.screen({relu, outside});
  EXPECT_FALSE(a.valid);
  EXPECT_NE(a.reason.find("outside its declared domain"), std::string::npos) << a.reason;

  aoc::eval::TuningConfig too_many;
  too_many.cores = 4096;  // more cores than the SoC has
  const aoc::search::Evaluation b = scoring.screen({relu, too_many});
  EXPECT_FALSE(b.valid);
  EXPECT_NE(b.reason.find("exceeds"), std::string::npos) << b.reason;

  // The platform override reaches the tiling function: 4 cores -> blockDim 4.
  aoc::eval::TuningConfig four;
  four.cores = 4;
  const aoc::search::Evaluation c = scoring.screen({relu, four});
  ASSERT_TRUE(c.valid) << c.reason;
  ASSERT_EQ(c.cases.size(), 1u);
  EXPECT_EQ(c.cases[0].block_dim, 4u);
  EXPECT_FALSE(c.cases[0].profile.empty());
  EXPECT_EQ(scoring.runs(), 3u);
  scoring.screen({relu, four});  // kept
  EXPECT_EQ(scoring.runs(), 3u);
}

// Tiles capped at 1024 elements with a UB budget of 96 or of 128 KiB hand relu's kernel the
// same tiling on the tuning case aligned_2d_fp16 ([16, 2048]) and on the probe: through the
// Evaluator, the second is answered with the first's evaluation, free, after a run of its
// tiling alone; 8 cores are another tiling. Another search (its own Evaluator over the same
// scoring) knows none of it and evaluates the configuration: the same time.
TEST(TuneRun, AConfigurationWithAnEvaluatedTilingIsAnsweredFree) {
  aoc::build::Builder builder(aoc::build::default_builder_options());
  const auto relu =
      kernel_of(aoc::eval::load_candidate(kRelu, aoc::base::tree_hash(fs::path(AOC_SOURCE_DIR) / "include" / "ascendc")));
  auto opt = aoc::eval::default_candidate_eval_options();
  opt.seed = 3;
  aoc::search::GatedScoring scoring = tuning_scoring(relu->cand, builder, opt, {"aligned_2d_fp16"}, /*gate=*/false);
  aoc::search::Evaluator ev(scoring, 8);
  aoc::eval::TuningConfig small_ub, large_ub;
  small_ub.knobs["tile_cap"] = 1024;
  small_ub.ub_bytes = 96 * 1024;
  large_ub = small_ub;
  large_ub.ub_bytes = 128 * 1024;

  const auto first = ev.request({relu, small_ub}, "first", std::nullopt);
  ASSERT_TRUE(first.scored && first.scored->eval.valid) << (first.scored ? first.scored->eval.reason : "no answer");
  EXPECT_FALSE(first.free);
  const auto same = ev.request({relu, large_ub}, "same tiling", std::nullopt);
  EXPECT_TRUE(same.free);
  EXPECT_EQ(same.scored, first.scored);
  EXPECT_EQ(scoring.runs(), 1u);  // the tiling-only run screens nothing
  EXPECT_EQ(ev.budget().spent(), 1u);

  aoc::eval::TuningConfig eight = small_ub;
  eight.cores = 8;
  const auto other = ev.request({relu, eight}, "other tiling", std::nullopt);
  ASSERT_TRUE(other.scored && other.scored->eval.valid) << (other.scored ? other.scored->eval.reason : "no answer");
  EXPECT_FALSE(other.free);
  EXPECT_NE(other.scored->eval.time_us, first.scored->eval.time_us);

  aoc::search::Evaluator another(scoring, 8);
  const auto real = another.request({relu, large_ub}, "run", std::nullopt);
  ASSERT_TRUE(real.scored && real.scored->eval.valid) << (real.scored ? real.scored->eval.reason : "no answer");
  EXPECT_FALSE(real.free);
  EXPECT_EQ(real.scored->eval.time_us, first.scored->eval.time_us);
  EXPECT_EQ(scoring.runs(), 3u);
}

// A copy of add whose tiling hard-codes its core count and UB budget and declares no knobs:
// varying what the platform reports would change nothing, so the tuner spends one evaluation
// (the operator's own configuration) instead of its budget.
TEST(TuneRun, NothingToTuneWhenTheTilingReadsNoPlatformNumber) {
  aoc::testing::ScratchDir tmp("tune-test");
  const fs::path add = fs::path(AOC_SOURCE_DIR) / "ops" / "elementwise" / "add";
  const fs::path pkg = tmp.path() / "add_fixed";
  fs::copy(add, pkg, fs::copy_options::recursive);
  fs::remove_all(pkg / "expert");
  const fs::path host = pkg / "op_host" / "add.cpp";
  std::ifstream in(host);
  std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = src.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    src.replace(at, from.size(), to);
  };
  replace("ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);", "ubSize = 192 * 1024;");
  replace("ascendcPlatform.GetCoreNumAiv();", "8;");
  std::ofstream(host) << src;

  aoc::build::Builder builder(aoc::build::default_builder_options());
  TuneOptions o = small_options(tmp.path() / "repo.json");
  o.tuning_cases = {"aligned_2d_fp16"};
  const TuneReport r = tune(pkg, builder, o);
  EXPECT_TRUE(r.space.dims.empty());
  EXPECT_EQ(r.search.history.size(), 1u);
  EXPECT_TRUE(r.verification.passed) << r.verification.message;
}

}  // namespace
