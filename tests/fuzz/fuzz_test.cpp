// `ascendopt fuzz` on planted bugs: add's tiling with a kernel that races only when a core's
// share is odd, and one whose partial last tile stores one element too few. The fuzzer finds
// each, shrinks it to the smallest failing case within what add declares, and prints an op.toml
// entry that reproduces it; on the correct kernel it finds nothing. The shrinker never leaves
// the declared shapes.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../cli_support.h"
#include "eval/eval_test_support.h"
#include "eval/package_copy.h"
#include "fuzz/fuzzer.h"
#include "fuzz/shrink.h"
#include "package/case_gen.h"

namespace {

namespace fs = std::filesystem;

std::string planted(const std::string& macro) {
  const std::string kernel =
      aoc::test::read_text(fs::path(AOC_SOURCE_DIR) / "tests/data/race_kernels/sync_add.cpp");
  return (macro.empty() ? "" : "#define " + macro + "\n") + kernel;
}

aoc::fuzz::FuzzReport fuzz_dir(const fs::path& dir, int64_t rounds) {
  aoc::fuzz::FuzzOptions opt;
  opt.seed = 1;
  opt.rounds = rounds;
  opt.batch = 6;
  opt.max_elements = 20000;
  opt.time_budget_s = 600;
  opt.eval = aoc::eval::testing::test_options({});
  opt.eval.soc = "Ascend910B1";
  const aoc::eval::Candidate cand = aoc::eval::load_candidate(dir, "");
  return aoc::fuzz::fuzz(cand, aoc::eval::testing::shared_builder(), opt);
}

TEST(Fuzz, ARaceOnOddSharesShrinksToOneElement) {
  const aoc::test::AddPackageCopy pkg(planted("RACE_ODD_SHARE"));
  const aoc::fuzz::FuzzReport r = fuzz_dir(pkg.dir(), 2);
  EXPECT_EQ(r.rounds, 2);
  EXPECT_EQ(r.cases_run, 12);
  EXPECT_GT(r.failing_cases, 0);
  ASSERT_EQ(r.findings.size(), 1u) << aoc::fuzz::to_json(r).dump(2);
  const aoc::fuzz::Finding& f = r.findings.front();
  EXPECT_EQ(f.verdict, "runtime_error");
  EXPECT_EQ(f.message.rfind("race: ", 0), 0u) << f.message;
  EXPECT_TRUE(f.reproduced);
  EXPECT_EQ(f.minimal_shape, "[1]");  // one element: one core, an odd share
  EXPECT_NE(f.first_shape, f.minimal_shape);
}

TEST(Fuzz, AWrongBranchForNegativeInputsKeepsValuesThatShowIt) {
  // Shrinking tries all-zero inputs; they pass here, so the minimal case keeps a range with
  // negative sums (and the candidate with zeros is judged on its own inputs and golden, not on
  // those of the case it came from).
  const aoc::test::AddPackageCopy pkg(planted("NEGATIVE_CLAMP"));
  const aoc::fuzz::FuzzReport r = fuzz_dir(pkg.dir(), 1);
  // The judge words the failure by where the wrong values fall (small values, elsewhere), so one
  // bug may show as several signatures.
  ASSERT_FALSE(r.findings.empty()) << aoc::fuzz::to_json(r).dump(2);
  for (const aoc::fuzz::Finding& f : r.findings) {
    EXPECT_EQ(f.verdict, "wrong_result");
    EXPECT_TRUE(f.reproduced);
    EXPECT_EQ(f.case_toml.find("zeros"), std::string::npos) << f.case_toml;
  }
}

TEST(Fuzz, TheCorrectKernelHasNoFinding) {
  const aoc::test::AddPackageCopy pkg(planted(""));
  const aoc::fuzz::FuzzReport r = fuzz_dir(pkg.dir(), 1);
  EXPECT_EQ(r.cases_run, 6);
  EXPECT_EQ(r.failing_cases, 0);
  EXPECT_TRUE(r.findings.empty()) << aoc::fuzz::to_json(r).dump(2);
}

TEST(Fuzz, TheCommandShrinksAnOffByOneTailPrintsAReproducingCaseAndResumes) {
  const aoc::test::AddPackageCopy pkg(planted("TAIL_OFF_BY_ONE"));
  const fs::path out = pkg.dir() / "fuzz-out";
  const std::string common = pkg.dir().string() + " --seed 1 --batch 6 --max-elements 20000 --out " + out.string();
  aoc::testing::CliRun r = aoc::testing::run_ascendopt("fuzz " + common + " --rounds 1 --json", false);
  ASSERT_EQ(r.status, 1) << r.out;  // findings: exit status 1
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["findings"].size(), 1u) << r.out;
  const auto& f = j["findings"][0];
  EXPECT_EQ(f["verdict"], "wrong_result");
  // Two elements: the smallest partial tile the bug shortens (one element stores all of itself).
  EXPECT_EQ(f["minimal_shape"], "[2]");
  EXPECT_TRUE(f["reproduced"].get<bool>());

  // The printed entry, appended to op.toml, fails the same way under `ascendopt run`.
  std::ofstream(pkg.dir() / "op.toml", std::ios::app) << "\n" << f["case_toml"].get<std::string>();
  aoc::testing::CliRun again = aoc::testing::run_ascendopt("run " + pkg.dir().string() + " --seed 1 --case fuzz_1 --json", false);
  nlohmann::json run = nlohmann::json::parse(again.out);
  ASSERT_EQ(run["ops"][0]["cases"].size(), 1u) << again.out;
  EXPECT_EQ(run["ops"][0]["cases"][0]["verdict"], "wrong_result") << again.out;
  EXPECT_EQ(run["ops"][0]["cases"][0]["shapes"], "x=[2] y=[2]") << again.out;

  // The same folder and seed resume: one more round, the finding kept, not shrunk again.
  aoc::testing::CliRun resumed = aoc::testing::run_ascendopt("fuzz " + common + " --rounds 2 --json", false);
  nlohmann::json k = nlohmann::json::parse(resumed.out);
  EXPECT_TRUE(k["resumed"].get<bool>());
  EXPECT_EQ(k["rounds"], 2);
  EXPECT_EQ(k["cases_run"], 12);
  EXPECT_EQ(k["findings"].size(), 1u);

  // Another seed on the same state folder is refused with what to do.
  aoc::testing::CliRun other = aoc::testing::run_ascendopt("fuzz " + pkg.dir().string() + " --seed 2 --out " + out.string());
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.out.find("pass that seed to resume it"), std::string::npos) << other.out;
}

TEST(Fuzz, ShrinkingStaysWithinTheDeclaredShapes) {
  aoc::package::OpPackage p = aoc::package::load_op_package(aoc::eval::testing::add_package());
  p.hidden.rank_min = 2;
  p.hidden.rank_max = 3;
  p.hidden.inner_min = 4;
  p.hidden.inner_multiple = 4;
  aoc::package::CaseSpec c;
  c.name = "c";
  c.shapes = aoc::package::input_shapes_from_first(p, {6, 5, 12});
  c.values.special = {1.0};
  size_t shapes = 0, values = 0;
  for (const auto& s : aoc::fuzz::smaller_cases(p, c)) {
    const auto& shape = aoc::fuzz::first_shape(p, s);
    EXPECT_EQ(aoc::package::shape_outside_declared(p.hidden, shape), "");
    EXPECT_EQ(s.shapes.at("y"), shape);  // every input follows the first
    if (shape != aoc::fuzz::first_shape(p, c)) ++shapes;
    else ++values;
  }
  // Drop the first or second dimension, 6 -> 1, 5 -> 1, 6 -> 3, 5 -> 2, 6 -> 5, 5 -> 4
  // (12 -> 1, 6 or 11 break the innermost rules; 12 -> 4 ... not a single step).
  EXPECT_EQ(shapes, 8u);
  EXPECT_EQ(values, 2u);  // without the special values; all zeros
}

}  // namespace
