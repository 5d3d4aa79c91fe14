// Package code that runs outside the candidate's sandbox is contained too: a golden that
// segfaults, throws, exits or spins gives the case verdict `error` with a message, the
// other candidates of a -j 2 batch get their results (and are stored), and no private
// folder is left behind. A package without golden.cpp and a temporary folder that does
// not exist are clear errors.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "eval/eval_pool.h"
#include "eval/reference_cache.h"
#include "eval/result_store.h"
#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTiny = "tiny_fp16";

// A copy of ops/elementwise/add whose only public case is tiny_fp16 (whole-set runs, the
// ones that are stored, stay fast); `golden` replaces its golden.cpp when given. Copies
// live at a fixed place in the build tree, so the build cache serves every test process.
fs::path tiny_add(const std::string& name, const fs::path& golden) {
  const fs::path dir = fs::read_symlink("/proc/self/exe").parent_path() / "hostile_packages" / name;
  if (fs::exists(dir)) return dir;
  const fs::path to = dir.string() + ".tmp" + std::to_string(::getpid());
  fs::create_directories(to.parent_path());
  fs::copy(add_package(), to, fs::copy_options::recursive);
  fs::remove_all(to / "expert");
  std::ifstream in(add_package() / "op.toml");
  const std::string toml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t first_case = toml.find("[[cases]]");
  const size_t tiny = toml.rfind("[[cases]]", toml.find("name = \"tiny_fp16\""));
  const size_t next = toml.find("[[cases]]", tiny + 1);
  std::ofstream(to / "op.toml") << toml.substr(0, first_case) << toml.substr(tiny, next - tiny);
  if (!golden.empty()) fs::copy_file(golden, to / "golden.cpp", fs::copy_options::overwrite_existing);
  std::error_code ec;
  fs::rename(to, dir, ec);  // another test process may have won the race: its copy is the same
  if (ec) fs::remove_all(to);
  return dir;
}

// Private copies of the add package (one with the hostile golden), and an empty temporary
// root per test for the evaluator's private folders (so leftovers show).
class HostileGolden : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The golden's behaviour changes with the environment, which the reference files cannot
    // see either: none are read or written here.
    ::setenv("AOC_REFERENCE_DISK_MB", "0", 1);
    base_ = fs::temp_directory_path() / ("aoc_hostile_golden_" + std::to_string(::getpid()));
    fs::create_directories(base_);
    hostile_ = tiny_add("add_hostile_golden", source_root() / "tests/data/hostile/golden_by_env.cpp");
    honest_ = tiny_add("add_tiny", {});
  }
  static void TearDownTestSuite() {
    ::unsetenv("AOC_HOSTILE_GOLDEN");
    ::unsetenv("AOC_REFERENCE_DISK_MB");
    fs::remove_all(base_);
  }
  void SetUp() override {
    temp_ = base_ / ("tmp_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(temp_);
  }
  CandidateEvalOptions options(double wall = 20) const {
    CandidateEvalOptions o = test_options({kTiny});
    o.temp_root = temp_;
    o.limits.wall_seconds = wall;
    return o;
  }
  CandidateReport eval_with(const char* mode, double wall = 20) {
    // The golden's behaviour changes with the environment, which the reference cache cannot
    // see: the golden must run again for each mode.
    ReferenceCache::shared().clear();
    ::setenv("AOC_HOSTILE_GOLDEN", mode, 1);
    CandidateReport r = evaluate_dir(hostile_, options(wall));
    ::unsetenv("AOC_HOSTILE_GOLDEN");
    return r;
  }
  bool temp_is_empty() const { return fs::is_empty(temp_); }

  static fs::path base_, hostile_, honest_;
  fs::path temp_;
};
fs::path HostileGolden::base_, HostileGolden::hostile_, HostileGolden::honest_;

std::string describe(const CandidateReport& r) { return std::string(to_string(r.verdict)) + ": " + r.message; }

}  // namespace

TEST_F(HostileGolden, HonestModeIsOk) {
  const auto r = eval_with("none");
  EXPECT_EQ(r.verdict, Verdict::Ok) << describe(r);
  EXPECT_TRUE(temp_is_empty());
}

TEST_F(HostileGolden, SegfaultIsErrorNamingTheSignal) {
  const auto r = eval_with("segv");
  ASSERT_EQ(r.verdict, Verdict::Error) << describe(r);
  EXPECT_NE(r.message.find("golden"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("SIGSEGV"), std::string::npos) << r.message;
  EXPECT_TRUE(temp_is_empty());
}

TEST_F(HostileGolden, UncaughtThrowIsError) {
  const auto r = eval_with("throw");
  ASSERT_EQ(r.verdict, Verdict::Error) << describe(r);
  EXPECT_NE(r.message.find("golden of add threw"), std::string::npos) << r.message;
  EXPECT_TRUE(temp_is_empty());
}

TEST_F(HostileGolden, ExitIsError) {
  const auto r = eval_with("exit");
  ASSERT_EQ(r.verdict, Verdict::Error) << describe(r);
  EXPECT_NE(r.message.find("exit"), std::string::npos) << r.message;
}

TEST_F(HostileGolden, SpinningIsErrorAfterTheTimeLimit) {
  const auto r = eval_with("spin", 2);
  ASSERT_EQ(r.verdict, Verdict::Error) << describe(r);
  EXPECT_NE(r.message.find("did not finish"), std::string::npos) << r.message;
  EXPECT_TRUE(temp_is_empty());
}

// The crash of one candidate's golden does not cost the others their results.
TEST_F(HostileGolden, BatchGoesOnAndStoresTheGoodCandidate) {
  ResultStore store(temp_ / "results.sqlite");
  PoolOptions pool;
  pool.jobs = 2;
  pool.store = &store;
  CandidateEvalOptions o = options();
  o.only_cases.clear();  // results of partial runs are not stored
  ReferenceCache::shared().clear();
  ::setenv("AOC_HOSTILE_GOLDEN", "segv", 1);
  fs::create_directories(temp_ / "private");
  o.temp_root = temp_ / "private";
  const auto reports = evaluate_candidates({hostile_, honest_}, shared_builder(), o, pool);
  ::unsetenv("AOC_HOSTILE_GOLDEN");
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].verdict, Verdict::Error) << describe(reports[0]);
  EXPECT_EQ(reports[1].verdict, Verdict::Ok) << describe(reports[1]);
  EXPECT_EQ(store.count(), 1u) << "the other candidate's result was not stored";
  EXPECT_TRUE(fs::is_empty(temp_ / "private"));
}

TEST_F(HostileGolden, MissingGoldenIsAClearError) {
  const fs::path copy = base_ / "add_without_golden";
  fs::copy(hostile_, copy, fs::copy_options::recursive);
  fs::remove(copy / "golden.cpp");
  CandidateReport r;
  try {
    r = evaluate_dir(copy, options());
  } catch (const std::exception& e) {
    r.verdict = Verdict::Error;
    r.message = e.what();
  }
  ASSERT_EQ(r.verdict, Verdict::Error) << describe(r);
  EXPECT_NE(r.message.find("golden.cpp"), std::string::npos) << r.message;
  // Through the pool (what `ascendopt eval` uses) it is a report, not an exception.
  const auto reports = evaluate_candidates({copy}, shared_builder(), options(), {});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].verdict, Verdict::Error);
  EXPECT_NE(reports[0].message.find("golden.cpp"), std::string::npos) << reports[0].message;
}

TEST(TemporaryFolder, MissingOneIsAClearError) {
  CandidateEvalOptions o = test_options({kTiny});
  o.temp_root = "/nonexistent-aoc-temp";
  const auto r = evaluate_dir(add_package(), o);
  ASSERT_EQ(r.verdict, Verdict::Error) << describe(r);
  EXPECT_NE(r.message.find("does not exist"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("TMPDIR"), std::string::npos) << r.message;
}
