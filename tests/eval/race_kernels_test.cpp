// Races in real kernels make a case fail (verdict runtime_error, "race: ...") naming both call sites;
// correctly synchronised kernels (the same kernel with every event, and the suite's
// operators) are not flagged.
#include <gtest/gtest.h>

#include "eval/package_copy.h"

namespace {

using aoc::eval::Verdict;

const std::string kSyncAdd =
    aoc::test::read_text(std::filesystem::path(AOC_SOURCE_DIR) / "tests/data/race_kernels/sync_add.cpp");

aoc::eval::CandidateReport run_variant(const std::string& macro) {
  aoc::test::AddPackageCopy pkg((macro.empty() ? "" : "#define " + macro + "\n") + kSyncAdd);
  return pkg.run("Ascend910B1", {"aligned_2d_fp16"});  // the traces are checked with a SoC; several tiles per core
}

std::string verdicts(const aoc::eval::CandidateReport& r) {
  std::string s = std::string(to_string(r.verdict)) + ": " + r.message + "\n";
  for (const auto& c : r.cases) s += c.name + ": " + to_string(c.verdict) + " " + c.message + "\n";
  return s;
}

bool passed(const aoc::eval::CandidateReport& r) { return r.verdict == Verdict::Ok && !r.cases.empty(); }

TEST(RaceKernels, FullySynchronisedKernelPasses) {
  auto r = run_variant("");
  ASSERT_TRUE(passed(r)) << verdicts(r);
  for (const auto& c : r.cases) EXPECT_TRUE(c.hazards.empty()) << c.name;
}

struct RaceCase {
  const char* macro;
  aoc::sim::HazardKind kind;
  const char* first_op;
  const char* second_op;
};

class RacyKernel : public ::testing::TestWithParam<RaceCase> {};

TEST_P(RacyKernel, FailsWithRaceNamingBothCallSites) {
  const RaceCase& rc = GetParam();
  auto r = run_variant(rc.macro);
  ASSERT_FALSE(r.cases.empty()) << verdicts(r);
  size_t races = 0;
  for (const auto& c : r.cases) {
    // The CPU runs pipes in program order, so the numbers are right: only the race fails the case.
    for (const auto& o : c.outputs) EXPECT_TRUE(o.cmp.pass) << c.name;
    if (c.hazards.empty()) {
      EXPECT_EQ(c.verdict, Verdict::Ok) << verdicts(r);
      continue;
    }
    ++races;
    EXPECT_EQ(c.verdict, Verdict::RuntimeError) << c.message;
    EXPECT_EQ(c.message.rfind("race: ", 0), 0u) << c.message;
    ASSERT_FALSE(c.hazards.empty());
    const auto& h = c.hazards.front();
    EXPECT_EQ(h.kind, rc.kind) << h.message();
    EXPECT_EQ(h.first.op, rc.first_op) << h.message();
    EXPECT_EQ(h.second.op, rc.second_op) << h.message();
    EXPECT_NE(h.first.file.find("add.cpp"), std::string::npos) << h.message();
    EXPECT_NE(h.first.line, h.second.line) << h.message();
    const std::string site1 = "add.cpp:" + std::to_string(h.first.line);
    const std::string site2 = "add.cpp:" + std::to_string(h.second.line);
    EXPECT_NE(c.message.find(site1), std::string::npos) << c.message;
    EXPECT_NE(c.message.find(site2), std::string::npos) << c.message;
  }
  EXPECT_GT(races, 0u) << verdicts(r);
  EXPECT_FALSE(passed(r));
}

INSTANTIATE_TEST_SUITE_P(
    Defects, RacyKernel,
    ::testing::Values(RaceCase{"RACE_NO_SYNC_IN", aoc::sim::HazardKind::Race, "DataCopyPad", "Add"},
                      RaceCase{"RACE_LATE_WAIT", aoc::sim::HazardKind::Race, "DataCopyPad", "Add"},
                      RaceCase{"RACE_REUSE", aoc::sim::HazardKind::Race, "Add", "DataCopyPad"}),
    [](const auto& info) { return std::string(info.param.macro); });

// A GetValue right after the vector op that wrote the bytes, with no V->S event: the device
// toolchain inserts that wait, so the case passes, with a warning naming both call sites.
TEST(ScalarReadAfterVector, IsSyncedAsTheToolchainDoesAndWarned) {
  auto r = run_variant("RACE_SCALAR_READ");
  EXPECT_TRUE(passed(r)) << verdicts(r);
  for (const auto& c : r.cases) {
    EXPECT_TRUE(c.hazards.empty()) << c.name << ": " << c.message;
    bool warned = false;
    for (const auto& w : c.warnings)
      warned = warned || (w.find("GetValue") != std::string::npos && w.find("Add at") != std::string::npos &&
                          w.find("V_S") != std::string::npos);
    EXPECT_TRUE(warned) << c.name;
  }
}

class SuiteOperator : public ::testing::TestWithParam<const char*> {};

TEST_P(SuiteOperator, IsNotFlagged) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::testing::test_options({});
  opt.seed = 11;
  opt.soc = "Ascend910B1";
  opt.limits.wall_seconds = 120;
  auto r = aoc::eval::testing::evaluate_dir(std::filesystem::path(AOC_SOURCE_DIR) / "ops" / GetParam(), opt);
  EXPECT_TRUE(passed(r)) << verdicts(r);
  for (const auto& c : r.cases) EXPECT_TRUE(c.hazards.empty()) << c.name << ": " << c.message;
}

INSTANTIATE_TEST_SUITE_P(Clean, SuiteOperator,
                         ::testing::Values("elementwise/add", "normalization/softmax", "normalization/layer_norm"));

}  // namespace
