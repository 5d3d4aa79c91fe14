// The search-time cascade on add: a candidate that is right on the screen's cases and wrong
// only on a larger public case is caught by the full gate before it can become the best; the
// best is always a gated candidate; a candidate no faster than the best is not gated; a
// candidate evaluated again runs nothing.
// (One test for the gated path: the gate of add runs every public case, 1e6 elements and more.)
#include "eval/cascade.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "eval/reference_cache.h"
#include "eval_test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::eval;
using namespace aoc::eval::testing;

Candidate load(const fs::path& dir) {
  return load_candidate(dir, aoc::base::tree_hash(source_root() / "include" / "ascendc"));
}

CascadeOptions small_gate() {
  CascadeOptions c;
  c.timing_cases = {"aligned_2d_fp16"};
  c.hidden_count = 2;  // a small draw keeps the test short; the tuner draws 8
  c.hidden_max_elements = 4096;
  c.hidden_seed = 7;
  return c;
}

TEST(Cascade, ProbeIsTheSmallestCaseOfEachDtypeOutsideTheTimingCases) {
  const Candidate add = load(add_package());
  EXPECT_EQ(default_probe_cases(add.package, {"aligned_2d_fp16"}),
            (std::vector<std::string>{"tiny_fp16", "rank1_small_fp32"}));
  EXPECT_EQ(default_probe_cases(add.package, {"tiny_fp16"}),
            (std::vector<std::string>{"prime_1021_fp16", "rank1_small_fp32"}));
}

TEST(Cascade, WrongOutsideTheProbeIsCaughtByTheGateAndNeverBest) {
  CandidateEvalOptions base = test_options({});
  base.limits.wall_seconds = 60;
  Cascade cascade(shared_builder(), base, small_gate());
  const Candidate wrong = load(source_root() / "tests" / "data" / "cascade" / "add_wrong_when_large");

  // First: no best yet, so the screen (right on its small cases) sends it to the gate, which
  // finds the 1e6-element case it subtracts on.
  const CascadeOutcome w = cascade.evaluate(wrong);
  EXPECT_TRUE(w.screen.ok) << w.screen.reason;
  EXPECT_EQ(w.screen.report.trials, 1);
  ASSERT_TRUE(w.gate);
  EXPECT_FALSE(w.gate->passed);
  EXPECT_FALSE(w.valid());
  EXPECT_NE(w.reason().find("full gate: public cases: case multi_tile_fp32"), std::string::npos) << w.reason();
  EXPECT_EQ(w.gate->public_report.verdict, Verdict::WrongResult);
  EXPECT_EQ(w.gate->public_report.cases.back().name, "multi_tile_fp32") << "the gate stops at the first failure";
  EXPECT_FALSE(w.gate->hidden_report);

  // The package's own kernel passes the gate and becomes the best.
  const Candidate good = load(add_package());
  const CascadeOutcome g = cascade.evaluate(good);
  ASSERT_TRUE(g.valid()) << g.reason();
  ASSERT_TRUE(g.gate);
  EXPECT_EQ(g.gate->public_report.trials, 2);
  EXPECT_EQ(g.gate->public_report.cases.size(), good.package.cases.size());
  ASSERT_TRUE(g.gate->hidden_report);
  EXPECT_EQ(g.gate->hidden_report->cases.size(), 2u);
  const double best_us = g.screen.time_us;
  // The screen's one trial is the gate's first: the same simulated time.
  for (const auto& sc : g.screen.report.cases)
    for (const auto& gc : g.gate->public_report.cases)
      if (sc.name == gc.name) EXPECT_EQ(sc.sim_us, gc.sim_us) << sc.name;

  // The wrong candidate again runs no stage and, gated against the best or not, is never valid.
  EXPECT_EQ(cascade.screens_run(), 2u);
  EXPECT_EQ(cascade.gates_run(), 2u);
  const CascadeOutcome again = cascade.evaluate(wrong, {}, best_us);
  EXPECT_EQ(cascade.screens_run(), 2u);
  EXPECT_EQ(cascade.gates_run(), 2u);
  EXPECT_FALSE(again.valid() && again.gate) << "a gated wrong candidate never becomes the best";

  // A copy of add with a changed comment: another candidate (hash), the same kernel and time,
  // so no faster than the best: screened, valid, not gated.
  const fs::path dir = fs::temp_directory_path() / ("aoc-cascade-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy(add_package() / "op_kernel", dir / "op_kernel");
  std::ofstream(dir / "op_kernel" / "add.cpp", std::ios::app) << "// the same kernel\n";
  std::ofstream(dir / "candidate.toml") << "package = \"" << add_package().string() << "\"\n";
  const CascadeOutcome same = cascade.evaluate(load(dir), {}, best_us);
  fs::remove_all(dir);
  EXPECT_TRUE(same.valid()) << same.reason();
  EXPECT_FALSE(same.gate);
  EXPECT_EQ(same.screen.time_us, best_us);
  EXPECT_EQ(cascade.screens_run(), 3u);
  EXPECT_EQ(cascade.gates_run(), 2u);

  // Another search (no best yet) gates the package's kernel again from the kept results.
  const CascadeOutcome fresh = cascade.evaluate(good);
  ASSERT_TRUE(fresh.gate);
  EXPECT_TRUE(fresh.valid());
  EXPECT_EQ(cascade.gates_run(), 2u);
}

TEST(Cascade, ScreensOnlyWhenTheGateIsOff) {
  CascadeOptions o = small_gate();
  o.gate = false;
  Cascade cascade(shared_builder(), test_options({}), o);
  const CascadeOutcome r = cascade.evaluate(load(add_package()));
  EXPECT_TRUE(r.valid()) << r.reason();
  EXPECT_FALSE(r.gate);
  EXPECT_GT(r.screen.time_us, 0);
  EXPECT_THROW(Cascade(shared_builder(), test_options({}), CascadeOptions{}), std::invalid_argument);
}

}  // namespace
