// scripts/motifs_suite.py goes on from an earlier run's --json file: --resume runs only the
// packages it lacks, --redo forgets the named packages' rows and runs them again. The real
// script, rewriter and programs of this build, on two packages, detection and writing only
// (--no-eval) and one motif, so it takes seconds.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

aoc::testing::CliRun script(const std::string& args) {
  const fs::path build = aoc::testing::ascendopt_binary().parent_path().parent_path();
  return aoc::testing::run_command("python3 " + std::string(AOC_SOURCE_DIR) + "/scripts/motifs_suite.py --build " +
                                   build.string() + " --jobs 1 --only relu,abs --motif l2_hint --no-eval --no-doc " + args +
                                   " 2>&1");
}

json load(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in, nullptr, false);
}

size_t rows_of(const json& j, const std::string& op, bool marked) {
  size_t n = 0;
  for (const auto& r : j.at("rows"))
    if (r.at("op") == op && r.contains("earlier") == marked) ++n;
  return n;
}

TEST(MotifsSuiteScript, RedoRunsOnlyTheNamedPackagesAgain) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  aoc::testing::ScratchDir tmp("motifs-suite");
  const fs::path first = tmp.path() / "first.json", second = tmp.path() / "second.json";
  const std::string work = " --work " + (tmp.path() / "work").string();
  auto r = script("--json " + first.string() + work);
  ASSERT_EQ(r.status, 0) << r.out;
  json j = load(first);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j.at("covered"), json::array({"relu", "abs"}));
  // Package folders named relative to the tree, not by this machine's path.
  for (const auto& st : j.at("states")) {
    const std::string dir = st.at(0).at(2);
    EXPECT_EQ(dir.rfind("ops/", 0), 0u) << dir;
  }
  // Both packages and their experts take l2_hint (applicable on every one of them).
  ASSERT_GT(rows_of(j, "relu", false), 0u) << j.dump(1);
  ASSERT_GT(rows_of(j, "abs", false), 0u) << j.dump(1);
  const size_t relu_rows = rows_of(j, "relu", false), abs_rows = rows_of(j, "abs", false);

  // Every row of the first run marked: rows made again come without the mark.
  for (auto& row : j.at("rows")) row["earlier"] = true;
  std::ofstream(first) << j.dump(1);
  r = script("--resume " + first.string() + " --redo relu --json " + second.string() + work);
  ASSERT_EQ(r.status, 0) << r.out;
  const json k = load(second);
  EXPECT_EQ(rows_of(k, "relu", false), relu_rows) << k.dump(1);
  EXPECT_EQ(rows_of(k, "relu", true), 0u);
  EXPECT_EQ(rows_of(k, "abs", true), abs_rows);
  EXPECT_EQ(rows_of(k, "abs", false), 0u);
  EXPECT_EQ(k.at("complete"), true);

  // Two files combined: relu made again (alone in its file) replaces the first file's relu
  // when it comes later, not when it comes first; abs stays the first file's.
  json relu_only = k;
  relu_only["covered"] = json::array({"relu"});
  json kept = json::array();
  for (const auto& row : k.at("rows"))
    if (row.at("op") == "relu") kept.push_back(row);
  relu_only["rows"] = kept;
  json states = json::array();
  for (const auto& st : k.at("states"))
    if (st.at(0).at(0) == "relu") states.push_back(st);
  relu_only["states"] = states;
  const fs::path again = tmp.path() / "relu.json", combined = tmp.path() / "combined.json";
  std::ofstream(again) << relu_only.dump(1);
  r = script("--resume " + first.string() + " --resume " + again.string() + " --json " + combined.string() + work);
  ASSERT_EQ(r.status, 0) << r.out;
  json c = load(combined);
  EXPECT_EQ(rows_of(c, "relu", false), relu_rows) << c.dump(1);
  EXPECT_EQ(rows_of(c, "relu", true), 0u);
  EXPECT_EQ(rows_of(c, "abs", true), abs_rows);
  EXPECT_EQ(c.at("states").size(), k.at("states").size());
  r = script("--resume " + again.string() + " --resume " + first.string() + " --json " + combined.string() + work);
  ASSERT_EQ(r.status, 0) << r.out;
  c = load(combined);
  EXPECT_EQ(rows_of(c, "relu", true), relu_rows) << c.dump(1);
  EXPECT_EQ(rows_of(c, "relu", false), 0u);
}

TEST(MotifsSuiteScript, RedoNeedsAResumeFileThatCoversThePackage) {
  aoc::testing::ScratchDir tmp("motifs-suite");
  const fs::path earlier = tmp.path() / "earlier.json";
  std::ofstream(earlier) << R"({"rows": [], "errors": [], "states": [], "covered": ["relu"], "complete": false})";
  auto r = script("--redo relu");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("give --resume FILE"), std::string::npos) << r.out;
  r = script("--resume " + earlier.string() + " --redo relu --table-only");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("without --table-only"), std::string::npos) << r.out;
  r = script("--resume " + earlier.string() + " --redo abs");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--redo abs: not among the packages of the --resume file (it covers 1: relu)"), std::string::npos)
      << r.out;
}

}  // namespace
