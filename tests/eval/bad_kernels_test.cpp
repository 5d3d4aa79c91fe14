// The bad-input matrix: real misbehaving kernels (tests/data/bad_kernels), each
// evaluated in the sandbox and classified with its verdict and a message that says
// what went wrong; the evaluator keeps working afterwards.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "eval/eval_pool.h"
#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;

namespace {

constexpr const char* kTiny = "tiny_fp16";         // [5]: one core, one partial tile
constexpr const char* kAligned = "aligned_2d_fp16";  // [8,2048]: whole tiles on several cores

CandidateReport eval_bad(const std::string& name, const char* case_name, double wall_seconds = 20) {
  CandidateEvalOptions o = test_options({case_name});
  o.limits.wall_seconds = wall_seconds;
  return evaluate_dir(bad_kernel(name), o);
}

std::string describe(const CandidateReport& r) { return std::string(to_string(r.verdict)) + ": " + r.message; }

}  // namespace

TEST(BadKernels, SyntaxErrorIsCompileErrorWithTheLine) {
  const auto r = eval_bad("syntax_error", kTiny);
  ASSERT_EQ(r.verdict, Verdict::CompileError) << describe(r);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics.front().file.find("add.cpp"), std::string::npos);
  EXPECT_GT(r.diagnostics.front().line, 0);
}

// The host code is built into the kernel's library; its compile error is named as such.
TEST(BadKernels, HostCodeSyntaxErrorIsNamedHostCode) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aoc_host_syntax_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(add_package() / "op_kernel", dir / "op_kernel", fs::copy_options::recursive);
  fs::copy(add_package() / "op_host", dir / "op_host", fs::copy_options::recursive);
  std::ofstream(dir / "candidate.toml") << "package = \"" << add_package().string() << "\"\n";
  std::ofstream(dir / "op_host" / "add.cpp", std::ios::app) << "\nstatic int broken = ;\n";
  const auto r = evaluate_dir(dir, test_options({kTiny}));
  fs::remove_all(dir);
  ASSERT_EQ(r.verdict, Verdict::CompileError) << describe(r);
  EXPECT_NE(r.message.find("host code: "), std::string::npos) << r.message;
  EXPECT_EQ(eval_bad("syntax_error", kTiny).message.find("host code"), std::string::npos);
}

TEST(BadKernels, InfiniteLoopIsTimeout) {
  const auto r = eval_bad("infinite_loop", kTiny, 3);
  ASSERT_EQ(r.verdict, Verdict::Timeout) << describe(r);
  EXPECT_NE(r.message.find("wall-clock"), std::string::npos) << r.message;
}

TEST(BadKernels, SegfaultIsCrashNamingTheSignal) {
  const auto r = eval_bad("segfault", kTiny);
  ASSERT_EQ(r.verdict, Verdict::Crash) << describe(r);
  EXPECT_NE(r.message.find("SIGSEGV"), std::string::npos) << r.message;
}

TEST(BadKernels, OutOfBoundsGmWriteIsRuntimeError) {
  const auto r = eval_bad("oob_gm_write", kAligned);
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << describe(r);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_NE(r.cases[0].error_file.find("add.cpp"), std::string::npos) << r.message;
}

TEST(BadKernels, UbOverflowIsRuntimeError) {
  const auto r = eval_bad("ub_overflow", kAligned);
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << describe(r);
}

TEST(BadKernels, UnsynchronisedPipesAreARace) {
  const auto r = eval_bad("race", kAligned);
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << describe(r);
  EXPECT_NE(r.message.find("race"), std::string::npos) << r.message;
}

TEST(BadKernels, SubtractionIsWrongResultWithStatistics) {
  const auto r = eval_bad("wrong_result", kTiny);
  ASSERT_EQ(r.verdict, Verdict::WrongResult) << describe(r);
  ASSERT_EQ(r.cases.size(), 1u);
  ASSERT_EQ(r.cases[0].outputs.size(), 1u);
  EXPECT_FALSE(r.cases[0].outputs[0].cmp.pass);
  EXPECT_GT(r.cases[0].outputs[0].cmp.max_rel, 0.0);
  EXPECT_NE(r.message.find("worst at"), std::string::npos) << r.message;
}

TEST(BadKernels, NanOutputIsWrongResult) {
  const auto r = eval_bad("nan_output", kTiny);
  ASSERT_EQ(r.verdict, Verdict::WrongResult) << describe(r);
  EXPECT_GT(r.cases[0].outputs[0].cmp.nan_mismatch, 0);
}

TEST(BadKernels, ReplayedOutputIsSuspicious) {
  const auto r = eval_bad("output_cache", kTiny);
  ASSERT_EQ(r.verdict, Verdict::Suspicious) << describe(r);
  EXPECT_NE(r.message.find("does not depend on the inputs"), std::string::npos) << r.message;
}

TEST(BadKernels, WritingAFileIsRejectedWithTheLine) {
  const auto r = eval_bad("write_file", kTiny);
  ASSERT_EQ(r.verdict, Verdict::Rejected) << describe(r);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().rule, "file-io");
  EXPECT_GT(r.findings.front().line, 0);
}

TEST(BadKernels, SpawningAProcessIsRejected) {
  const auto r = eval_bad("spawn_process", kTiny);
  ASSERT_EQ(r.verdict, Verdict::Rejected) << describe(r);
  bool processes = false;
  for (const auto& f : r.findings) processes = processes || f.rule == "processes";
  EXPECT_TRUE(processes) << r.message;
}

TEST(BadKernels, Allocating100GiBIsMemoryLimit) {
  const auto r = eval_bad("alloc_100gb", kTiny);
  ASSERT_EQ(r.verdict, Verdict::MemoryLimit) << describe(r);
}

TEST(BadKernels, GoodKernelIsOkWithTimesAndTHw) {
  const auto r = evaluate_dir(add_package(), test_options({kTiny, kAligned}));
  ASSERT_EQ(r.verdict, Verdict::Ok) << describe(r);
  ASSERT_EQ(r.cases.size(), 2u);
  for (const auto& c : r.cases) {
    ASSERT_TRUE(c.sim_us.has_value());
    ASSERT_TRUE(c.t_hw_us.has_value());
    EXPECT_GE(*c.sim_us, *c.t_hw_us);
  }
}

// One run mixing crashing, hanging and good candidates: every one gets its verdict.
TEST(BadKernels, PoolSurvivesBadCandidatesAndStillPassesTheGoodOne) {
  CandidateEvalOptions o = test_options({kTiny});
  o.limits.wall_seconds = 3;
  PoolOptions pool;
  pool.jobs = 2;
  const auto reports = evaluate_candidates(
      {bad_kernel("segfault"), bad_kernel("infinite_loop"), add_package(), bad_kernel("no_such_candidate")},
      shared_builder(), o, pool);
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[0].verdict, Verdict::Crash) << describe(reports[0]);
  EXPECT_EQ(reports[1].verdict, Verdict::Timeout) << describe(reports[1]);
  EXPECT_EQ(reports[2].verdict, Verdict::Ok) << describe(reports[2]);
  EXPECT_EQ(reports[3].verdict, Verdict::Error);
  EXPECT_NE(reports[3].message.find("not a folder"), std::string::npos) << reports[3].message;
}
