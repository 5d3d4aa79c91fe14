// scripts/compare-suite.sh, which checks that two ascendopt builds give every suite package the
// same verdicts and simulated times: the real script and this build's programs on a one-case
// copy of abs. Two runs of the same build are identical; a build whose Task Durations are a
// nanosecond longer (this build behind a wrapper that edits its report) is found and named; a
// second run into the same folder goes on from the packages already compared.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_support.h"
#include "base/file_text.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::base::read_text;

namespace {

// ops/elementwise/abs without its expert and with its first public case only, under `root`.
void one_case_abs(const fs::path& root) {
  const fs::path pkg = root / "ops" / "elementwise" / "abs";
  fs::create_directories(pkg.parent_path());
  fs::copy(fs::path(AOC_SOURCE_DIR) / "ops" / "elementwise" / "abs", pkg, fs::copy_options::recursive);
  fs::remove_all(pkg / "expert");
  std::string toml = read_text(pkg / "op.toml");
  const size_t first = toml.find("[[cases]]");
  const size_t second = toml.find("[[cases]]", first + 1);
  ASSERT_NE(second, std::string::npos);
  std::ofstream(pkg / "op.toml") << toml.substr(0, second);
}

aoc::testing::CliRun compare_suite(const fs::path& root, const fs::path& old_bin, const fs::path& out) {
  const fs::path bin = aoc::testing::ascendopt_binary();
  return aoc::testing::run_command("cd " + root.string() + " && " + AOC_SOURCE_DIR + "/scripts/compare-suite.sh " +
                                   old_bin.string() + " " + bin.string() + " " + out.string() + " 'ops/*/*' 2>&1");
}

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(CompareSuiteScript, SameBuildIsIdenticalAndAStoppedRunGoesOn) {
  aoc::testing::ScratchDir tmp("compare-suite");
  one_case_abs(tmp.path());
  const fs::path out = tmp.path() / "out";
  auto r = compare_suite(tmp.path(), aoc::testing::ascendopt_binary(), out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("packages compared: 1 (1 candidates, 1 cases)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("identical verdicts, task_duration_us and t_hw_us: 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verdict or task_duration_us differs: 0"), std::string::npos) << r.out;
  const std::string rows = read_text(out / "results.tsv");
  ASSERT_EQ(lines(rows), 1u) << rows;
  EXPECT_EQ(rows.rfind("ops/elementwise/abs\tidentical\t1\t1\t", 0), 0u) << rows;

  // The package is in results.tsv: a second run into the same folder does not compare it again.
  const fs::path log = out / "ops_elementwise_abs.log";
  fs::remove(log);
  r = compare_suite(tmp.path(), aoc::testing::ascendopt_binary(), out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_FALSE(fs::exists(log));
  EXPECT_EQ(read_text(out / "results.tsv"), rows);
  EXPECT_NE(r.out.find("packages compared: 1 (1 candidates, 1 cases)"), std::string::npos) << r.out;
}

TEST(CompareSuiteScript, ALongerTaskDurationIsADifference) {
  aoc::testing::ScratchDir tmp("compare-suite");
  one_case_abs(tmp.path());
  // The "old build": this ascendopt, whose report says every case took a nanosecond longer. The
  // script runs the aoc-harness beside the binary it is given.
  const fs::path old_dir = tmp.path() / "old";
  fs::create_directories(old_dir);
  const fs::path bin = aoc::testing::ascendopt_binary();
  fs::create_symlink(bin.parent_path() / "aoc-harness", old_dir / "aoc-harness");
  std::ofstream(old_dir / "ascendopt") << "#!/bin/sh\n"
                                       << bin.string() << " \"$@\" | jq '.candidates[].cases[].task_duration_us += 0.001'\n";
  fs::permissions(old_dir / "ascendopt", fs::perms::owner_all);
  const fs::path out = tmp.path() / "out";
  auto r = compare_suite(tmp.path(), old_dir / "ascendopt", out);
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("verdict or task_duration_us differs: 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ops/elementwise/abs: different"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"t\":"), std::string::npos) << r.out;
}

}  // namespace
