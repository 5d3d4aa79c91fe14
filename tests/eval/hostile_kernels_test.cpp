// Hostile kernels that a text-based source check does not see (token pasting hides the
// calls): writing a file outside the private folder, starting a shell, forking a child that
// leaves the session. The API-use check does see the pasted names; it is off here, so that
// what is tested is the wall behind it: the sandbox stops each (verdict rejected, naming the
// forbidden call), nothing outside the private folders changes, no process of the evaluation
// survives, and the private folders are gone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

namespace {

// Processes whose command line mentions `needle` (the harness names its private folder).
int processes_mentioning(const std::string& needle) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(::getpid())) continue;
    std::ifstream in(e.path() / "cmdline");
    const std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmd.find(needle) != std::string::npos) ++n;
  }
  return n;
}

class HostileKernel : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "aoc_hostile_kernel_XXXXXX").string();
    temp_ = ::mkdtemp(t.data());
  }
  void TearDown() override { fs::remove_all(temp_); }

  // Evaluates tests/data/bad_kernels/NAME on the tiny case; `marker` must not exist after
  // `linger` seconds (time for an escaped process to act).
  CandidateReport eval_expecting_no(const std::string& name, const fs::path& marker, int linger = 0) {
    fs::remove(marker);
    CandidateEvalOptions o = test_options({"tiny_fp16"});
    o.temp_root = temp_;
    // The static check (the API-use check sees the pasted names) is off: these kernels are
    // here to show the sandbox stops what no check of the source sees.
    o.check_sources = false;
    const CandidateReport r = evaluate_dir(bad_kernel(name), o);
    if (linger > 0) ::sleep(linger);
    EXPECT_FALSE(fs::exists(marker)) << name << " changed " << marker << " outside its private folder";
    EXPECT_EQ(processes_mentioning(temp_.string()), 0) << name << ": a process of the evaluation survived";
    EXPECT_TRUE(fs::is_empty(temp_)) << name << ": a private folder was left behind";
    fs::remove(marker);
    return r;
  }

  fs::path temp_;
};

std::string describe(const CandidateReport& r) { return std::string(to_string(r.verdict)) + ": " + r.message; }

}  // namespace

TEST_F(HostileKernel, TokenPastedFileWriteIsStopped) {
  const auto r = eval_expecting_no("pasted_file_write", "/tmp/aoc_hostile_file_write");
  ASSERT_EQ(r.verdict, Verdict::Rejected) << describe(r);
  EXPECT_TRUE(r.findings.empty()) << "the static check was expected not to see it";
  EXPECT_NE(r.message.find("forbids: open"), std::string::npos) << r.message;
}

TEST_F(HostileKernel, TokenPastedSystemIsStopped) {
  const auto r = eval_expecting_no("pasted_system", "/tmp/aoc_hostile_spawn");
  ASSERT_EQ(r.verdict, Verdict::Rejected) << describe(r);
  EXPECT_NE(r.message.find("system call the sandbox forbids"), std::string::npos) << r.message;
}

TEST_F(HostileKernel, SetsidEscapeIsStoppedAndNothingSurvives) {
  const auto r = eval_expecting_no("setsid_escape", "/tmp/aoc_hostile_setsid", 2);
  ASSERT_EQ(r.verdict, Verdict::Rejected) << describe(r);
  EXPECT_NE(r.message.find("forbids: clone"), std::string::npos) << r.message;
}

// The honest kernel still evaluates ok under the same sandbox.
TEST_F(HostileKernel, HonestKernelIsOkUnderTheSameSandbox) {
  CandidateEvalOptions o = test_options({"tiny_fp16"});
  o.temp_root = temp_;
  const auto r = evaluate_dir(add_package(), o);
  EXPECT_EQ(r.verdict, Verdict::Ok) << describe(r);
  EXPECT_FALSE(r.isolation.empty());
  EXPECT_TRUE(fs::is_empty(temp_));
}
