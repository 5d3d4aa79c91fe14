// The hostile-candidate corpus (tests/data/hostile_candidates): Add kernels that compute the
// right answer and try to forge their time or reach the host, each with an expect.toml:
//   verdict  = what the whole evaluator must give (never ok)
//   message  = text the verdict's message must contain (the symbol or the file refused)
//   backstop = what the parent-side checks alone must give when the static check is off
//              (the trace could be forged by code that check does not see)
//   api_check_seconds = the API-use check's time limit for this entry (a short one for a
//              candidate made to exhaust it)
// One test runs every entry, so a new attack is a new folder, not new code.
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

namespace {

struct Expectation {
  fs::path dir;
  std::string verdict, message, backstop;
  int api_check_seconds = 0;  // 0: the default limit
};

std::vector<Expectation> corpus() {
  std::vector<Expectation> out;
  for (const auto& e : fs::directory_iterator(source_root() / "tests" / "data" / "hostile_candidates")) {
    const fs::path file = e.path() / "expect.toml";
    if (!fs::exists(file)) continue;
    const toml::table t = toml::parse_file(file.string());
    out.push_back({e.path(), t["verdict"].value_or(std::string()), t["message"].value_or(std::string()),
                   t["backstop"].value_or(std::string()), t["api_check_seconds"].value_or(0)});
  }
  std::sort(out.begin(), out.end(), [](const Expectation& a, const Expectation& b) { return a.dir < b.dir; });
  return out;
}

// Two cases: one tile per core, and many tiles on every core (a trace with real volume).
CandidateEvalOptions corpus_options() { return test_options({"aligned_2d_fp16", "multi_tile_fp32"}); }

std::string describe(const CandidateReport& r) {
  std::string s = std::string(to_string(r.verdict)) + ": " + r.message;
  for (const auto& f : r.findings) s += "\n  " + f.message();
  for (const auto& c : r.cases) s += "\n  " + c.name + " " + to_string(c.verdict) + ": " + c.message;
  return s;
}

}  // namespace

TEST(HostileCorpus, HasTheKnownAttacks) {
  // A corpus that lost its entries would pass the tests below vacuously.
  EXPECT_GE(corpus().size(), 13u);
}

TEST(HostileCorpus, EveryAttackGetsItsVerdictNeverOk) {
  for (const Expectation& e : corpus()) {
    SCOPED_TRACE(e.dir.filename().string());
    if (e.api_check_seconds > 0) ::setenv("AOC_API_CHECK_SECONDS", std::to_string(e.api_check_seconds).c_str(), 1);
    const CandidateReport r = evaluate_dir(e.dir, corpus_options());
    ::unsetenv("AOC_API_CHECK_SECONDS");
    EXPECT_NE(r.verdict, Verdict::Ok) << describe(r);
    EXPECT_EQ(to_string(r.verdict), e.verdict) << describe(r);
    EXPECT_NE(describe(r).find(e.message), std::string::npos) << "expected '" << e.message << "' in\n" << describe(r);
    // The message names the candidate's own file, never the build cache's copy.
    if (r.verdict == Verdict::Rejected) EXPECT_EQ(describe(r).find("/sources/"), std::string::npos) << describe(r);
  }
}

TEST(HostileCorpus, ForgedTracesAreSuspiciousEvenPastTheStaticCheck) {
  int checked = 0;
  for (const Expectation& e : corpus()) {
    if (e.backstop.empty()) continue;
    SCOPED_TRACE(e.dir.filename().string());
    CandidateEvalOptions o = corpus_options();
    o.check_sources = false;
    const CandidateReport r = evaluate_dir(e.dir, o);
    EXPECT_EQ(to_string(r.verdict), e.backstop) << describe(r);
    ++checked;
  }
  EXPECT_GE(checked, 9);
}
