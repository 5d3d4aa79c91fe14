// The API-use check (eval/api_use_check.h, aoc-rewrite check-api) with the real checker of
// this build: every way tests/data/api_forgery/forgeries reaches the simulator's internals is
// reported on its line, code that only looks close (clean_tricks) and the Add package pass, a
// second check of the same sources is a cache hit, even in another folder, and the evaluator
// rejects a forging kernel naming the candidate's own file and line.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "build/header_hash.h"
#include "eval/api_use_check.h"
#include "eval/eval_test_support.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using namespace aoc::eval;
using namespace aoc::eval::testing;

namespace {

fs::path forgery(const std::string& name) { return source_root() / "tests" / "data" / "api_forgery" / name; }

Candidate candidate(const fs::path& dir) { return load_candidate(dir, aoc::build::ascendc_header_hash(source_root())); }

ApiCheckOutcome check(const fs::path& dir) {
  const aoc::build::BuilderOptions& b = shared_builder().options();
  return check_api_use(candidate(dir), api_checker_path(), b.root, b.cache_dir, b.shared_caches, b.precompiled_headers);
}

// line -> the symbol its `// api: X` comment says must be reported there.
std::map<int, std::string> expected(const fs::path& file) {
  std::map<int, std::string> out;
  std::ifstream in(file);
  std::string line;
  const std::regex marker(R"(// api: (.+?)\s*$)");
  std::smatch m;
  for (int n = 1; std::getline(in, line); ++n)
    if (std::regex_search(line, m, marker)) out[n] = m[1];
  return out;
}

std::string listing(const std::vector<SourceFinding>& fs) {
  std::string s;
  for (const auto& f : fs) s += "  " + f.message() + "\n";
  return s;
}

TEST(ApiUseCheck, EveryForgeryIsReportedOnItsLine) {
  const fs::path kernel = forgery("forgeries") / "op_kernel" / "add.cpp";
  const auto want = expected(kernel);
  ASSERT_GE(want.size(), 25u);
  const ApiCheckOutcome r = check(forgery("forgeries"));
  ASSERT_EQ(r.parse_error, "");
  std::map<int, std::set<std::string>> found;
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.file, kernel.string()) << "findings name the candidate's own file";
    EXPECT_EQ(f.rule, "api-use");
    EXPECT_GT(f.column, 0);
    found[f.line].insert(f.text);
  }
  for (const auto& [line, symbol] : want)
    EXPECT_TRUE(found[line].count(symbol)) << "line " << line << ": `" << symbol << "` not reported; found:\n"
                                           << listing(r.findings);
  // Nothing in the Add kernel itself (everything before the first marked line).
  for (const auto& f : r.findings) EXPECT_GE(f.line, want.begin()->first) << f.message();
}

TEST(ApiUseCheck, TheMessageSaysWhatAndWhy) {
  const ApiCheckOutcome r = check(forgery("trace_clear"));
  ASSERT_FALSE(r.findings.empty());
  const std::string m = r.findings.front().message();
  EXPECT_NE(m.find((forgery("trace_clear") / "op_kernel" / "add.cpp").string() + ":7:"), std::string::npos) << m;
  EXPECT_NE(m.find("rule 'api-use'"), std::string::npos) << m;
  EXPECT_NE(m.find("namespace aoc is the simulator's internals"), std::string::npos) << m;
}

TEST(ApiUseCheck, AllowedLookalikesAndTheAddPackagePass) {
  for (const fs::path& dir : {forgery("clean_tricks"), add_package()}) {
    const ApiCheckOutcome r = check(dir);
    EXPECT_EQ(r.parse_error, "") << dir;
    EXPECT_TRUE(r.findings.empty()) << dir << ":\n" << listing(r.findings);
  }
}

TEST(ApiUseCheck, AnswersAreKeptByContent) {
  const ApiCheckOutcome first = check(forgery("trace_clear"));
  const ApiCheckOutcome again = check(forgery("trace_clear"));
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(listing(again.findings), listing(first.findings));
  // The same sources in another folder: a hit, in that folder's names.
  aoc::testing::ScratchDir tmp("api-check");
  fs::copy(forgery("trace_clear"), tmp.path() / "c", fs::copy_options::recursive);
  std::ofstream(tmp.path() / "c" / "candidate.toml", std::ios::trunc)
      << "package = \"" << add_package().string() << "\"\n";
  const ApiCheckOutcome moved = check(tmp.path() / "c");
  EXPECT_TRUE(moved.from_cache);
  ASSERT_EQ(moved.findings.size(), first.findings.size());
  EXPECT_EQ(moved.findings.front().file, (tmp.path() / "c" / "op_kernel" / "add.cpp").string());
  // A changed kernel (never seen before: the change names this run) is checked afresh.
  std::ofstream(tmp.path() / "c" / "op_kernel" / "add.cpp", std::ios::app)
      << "\n// " << tmp.path().filename().string() << "\nstatic int own_addition = 0;\n";
  EXPECT_FALSE(check(tmp.path() / "c").from_cache);
}

TEST(ApiUseCheck, TheEvaluatorRejectsAForgingKernel) {
  const CandidateReport r = evaluate_dir(forgery("trace_clear"), test_options({"aligned_2d_fp16"}));
  EXPECT_EQ(r.verdict, Verdict::Rejected) << r.message;
  EXPECT_NE(r.message.find((forgery("trace_clear") / "op_kernel" / "add.cpp").string() + ":7:"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("rule 'api-use': `aoc`"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("/sources/"), std::string::npos) << "names the staged copy: " << r.message;
  EXPECT_TRUE(r.cases.empty()) << "nothing runs";
}

TEST(ApiUseCheck, AMissingCheckerSaysHowToBuildIt) {
  CandidateEvalOptions o = test_options({"aligned_2d_fp16"});
  o.api_checker = "/nonexistent/aoc-rewrite";
  const CandidateReport r = evaluate_dir(add_package(), o);
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_NE(r.message.find("aoc-rewrite is missing"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("--target aoc-rewrite"), std::string::npos) << r.message;
}

}  // namespace

namespace {

// scripts/api-check-suite.sh: every operator package under ops/ (op_kernel and op_host) with its
// expert, and the test kernels meant to evaluate, pass the check. A few minutes on a cold
// cache, so it runs only when the script asks for it.
TEST(ApiUseSuite, EveryPackageAndTestKernelPasses) {
  if (std::getenv("AOC_API_CHECK_SUITE") == nullptr) GTEST_SKIP() << "run scripts/api-check-suite.sh";
  std::vector<fs::path> dirs;
  for (const auto& e : fs::recursive_directory_iterator(source_root() / "ops"))
    if (e.path().filename() == "op.toml") {
      dirs.push_back(e.path().parent_path());
      if (fs::is_directory(e.path().parent_path() / "expert")) dirs.push_back(e.path().parent_path() / "expert");
    }
  std::sort(dirs.begin(), dirs.end());
  const fs::path data = source_root() / "tests" / "data";
  for (const auto& e : fs::directory_iterator(data / "cascade")) dirs.push_back(e.path());
  dirs.push_back(data / "compat" / "exp");
  dirs.push_back(forgery("clean_tricks"));
  // The misbehaving kernels whose fault is not a forbidden facility (those the source check
  // refuses first, and the one that does not parse, are left out).
  for (const char* k : {"alloc_100gb", "infinite_loop", "nan_output", "oob_gm_write", "output_cache", "race",
                        "segfault", "ub_overflow", "wrong_result"})
    dirs.push_back(data / "bad_kernels" / k);
  size_t cached = 0;
  double seconds = 0;
  for (const auto& d : dirs) {
    const ApiCheckOutcome r = check(d);
    cached += r.from_cache;
    seconds += r.seconds;
    EXPECT_EQ(r.parse_error, "") << d;
    EXPECT_TRUE(r.findings.empty()) << d << ":\n" << listing(r.findings);
    std::printf("%-70s %s %.2f s%s\n", fs::relative(d, source_root()).c_str(),
                r.findings.empty() && r.parse_error.empty() ? "pass" : "FAIL", r.seconds, r.from_cache ? " (cached)" : "");
  }
  std::printf("%zu candidates, %zu from the cache, %.1f s in the check\n", dirs.size(), cached, seconds);
}

}  // namespace
