// scripts/motifs_suite.py goes on from an earlier run's --json file: --resume runs only the
// packages it lacks, --redo forgets the named packages' rows and runs them again. The real
// script, rewriter and programs of this build, on two packages, detection and writing only
// (--no-eval) and one motif, so it takes seconds.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

aoc::testing::CliRun script(const std::string& args, const std::string& motifs = "l2_hint") {
  const fs::path build = aoc::testing::ascendopt_binary().parent_path().parent_path();
  return aoc::testing::run_command("python3 " + std::string(AOC_SOURCE_DIR) + "/scripts/motifs_suite.py --build " +
                                   build.string() + " --jobs 1 --only relu,abs --motif " + motifs +
                                   " --no-eval --no-doc " + args + " 2>&1");
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

// A run made with --motif M, given after the file of a run of more motifs, replaces only M's
// rows and detections of the packages it covers (what a changed motif needs); given first to a
// run of other motifs, it is refused.
TEST(MotifsSuiteScript, AMotifRunMergesIntoARunOfMoreMotifs) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  aoc::testing::ScratchDir tmp("motifs-suite");
  const fs::path whole = tmp.path() / "whole.json", part = tmp.path() / "part.json", merged = tmp.path() / "merged.json";
  const std::string work = " --work " + (tmp.path() / "work").string();
  auto r = script("--json " + whole.string() + work, "l2_hint,unroll");
  ASSERT_EQ(r.status, 0) << r.out;
  json w = load(whole);
  ASSERT_FALSE(w.is_discarded()) << r.out;
  EXPECT_EQ(w.at("motifs"), json::array({"l2_hint", "unroll"}));
  std::map<std::string, size_t> made;
  for (auto& row : w.at("rows")) {
    ++made[row.at("motif").get<std::string>()];
    row["earlier"] = true;
  }
  ASSERT_GT(made["l2_hint"], 0u) << w.dump(1);
  ASSERT_GT(made["unroll"], 0u) << w.dump(1);
  for (auto& st : w.at("states"))
    for (auto& d : st.at(1)) d["earlier"] = true;
  std::ofstream(whole) << w.dump(1);

  r = script("--json " + part.string() + work);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(load(part).at("motifs"), json::array({"l2_hint"}));
  r = script("--resume " + whole.string() + " --resume " + part.string() + " --table-only --json " + merged.string() + work,
             "l2_hint,unroll");
  ASSERT_EQ(r.status, 0) << r.out;
  const json c = load(merged);
  std::map<std::string, size_t> earlier, again;
  for (const auto& row : c.at("rows")) ++(row.contains("earlier") ? earlier : again)[row.at("motif").get<std::string>()];
  EXPECT_EQ(earlier["unroll"], made["unroll"]) << c.dump(1);
  EXPECT_EQ(again["unroll"], 0u);
  EXPECT_EQ(again["l2_hint"], made["l2_hint"]);
  EXPECT_EQ(earlier["l2_hint"], 0u);
  ASSERT_EQ(c.at("states").size(), w.at("states").size());
  for (const auto& st : c.at("states"))
    for (const auto& d : st.at(1))
      EXPECT_EQ(d.contains("earlier"), d.at("motif") != "l2_hint") << st.at(0) << " " << d.at("motif");

  r = script("--resume " + part.string() + work, "l2_hint,unroll");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("made with --motif l2_hint, this run with --motif l2_hint,unroll"), std::string::npos) << r.out;
}

TEST(MotifsSuiteScript, RedoNeedsAResumeFileThatCoversThePackage) {
  aoc::testing::ScratchDir tmp("motifs-suite");
  const fs::path earlier = tmp.path() / "earlier.json";
  std::ofstream(earlier) << R"({"rows": [], "errors": [], "states": [], "covered": ["relu"], "complete": false, "motifs": ["l2_hint"]})";
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
