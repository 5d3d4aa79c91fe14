// `ascendopt optimize` end to end: a package whose baseline fails is a clear error (no
// search), and a run killed in the middle resumes from the result store: the evaluations it
// finished are recalled, not repeated, and the resumed run ends where an uninterrupted one does.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/file_text.h"
#include "cli_support.h"
#include "eval/result_store.h"
#include "optimize/small_package.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

const fs::path kSrc = AOC_SOURCE_DIR;

TEST(OptimizeCli, FailingBaselineIsAClearError) {
  aoc::testing::ScratchDir tmp("optimize-cli");
  const auto r = run_ascendopt("optimize " + (kSrc / "tests/data/bad_kernels/wrong_result").string() +
                               " --budget 4 --case aligned_2d_fp16 --no-store --out " + (tmp.path() / "run").string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("error: the operator's own kernel fails on the evaluation cases (wrong_result"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ascendopt eval"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(tmp.path() / "run" / "report.json"));
}

TEST(OptimizeCli, UnknownMethodIsAUsageError) {
  const auto r = run_ascendopt("optimize " + (kSrc / "ops/activation/relu").string() + " --method genetic");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--method genetic is not a method"), std::string::npos) << r.out;
}

nlohmann::json run_json(const std::string& args) {
  const auto r = run_ascendopt(args + " --json", false);
  EXPECT_EQ(r.status, 0) << r.out;
  return nlohmann::json::parse(r.out);
}

TEST(OptimizeCli, KilledRunResumesWithoutLosingOrRepeatingEvaluations) {
  aoc::testing::ScratchDir tmp("optimize-cli");
  const fs::path relu = aoc::testing::small_package_copy(kSrc / "ops/activation/relu", tmp.path() / "relu");
  const std::string common = "optimize " + relu.string() + " --method tune-only --budget 12 --seed 5 --case aligned_2d_fp16";
  const fs::path store = tmp.path() / "killed.sqlite";
  const std::string killed_args = common + " --store " + store.string() + " --out " + (tmp.path() / "killed").string();

  // Start the run and kill it (SIGKILL, no chance to clean up) once 2 evaluations are stored.
  // A cached kernel evaluates in tens of milliseconds, so the store is polled every 5 ms and the
  // budget leaves ten more evaluations between the kill and the end of the run.
  // ascendopt is the child itself, not a shell's: waitpid then returns only once it is gone, so
  // a store write it had under way when killed cannot land after the count below.
  const std::string binary = aoc::testing::ascendopt_binary().string();
  std::vector<std::string> words{binary};
  std::istringstream split(killed_args);
  for (std::string w; split >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  size_t stored = 0;
  for (int i = 0; i < 60000 && stored < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (fs::exists(store)) stored = aoc::eval::ResultStore(store).count();
  }
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  ASSERT_GE(stored, 2u) << "the run did not store 2 evaluations in 5 minutes";
  stored = aoc::eval::ResultStore(store).count();
  ASSERT_LT(stored, 12u) << "the run finished before it was killed";

  const nlohmann::json resumed = run_json(killed_args);
  EXPECT_EQ(resumed["evaluations"], 12);
  EXPECT_EQ(resumed["recalled_from_store"], stored) << "evaluations finished before the kill are recalled";
  EXPECT_EQ(resumed["fresh_evaluations"].get<size_t>() + stored, 12u) << "and none is run twice";

  const nlohmann::json whole =
      run_json(common + " --store " + (tmp.path() / "whole.sqlite").string() + " --out " + (tmp.path() / "whole").string());
  ASSERT_EQ(whole["history"].size(), resumed["history"].size());
  for (size_t i = 0; i < whole["history"].size(); ++i) {
    EXPECT_EQ(whole["history"][i]["config"], resumed["history"][i]["config"]) << i;
    EXPECT_EQ(whole["history"][i]["time_us"], resumed["history"][i]["time_us"]) << i;
  }
  EXPECT_EQ(whole["best_us"], resumed["best_us"]);
  EXPECT_TRUE(fs::exists(tmp.path() / "killed" / "best.diff"));
}

// Verification draws its inputs from the hidden seed, not the search seed: a run with another
// seed that ends on the same variant (here the baseline, at a budget of 1) recalls its
// verification from the store and adds only its own search evaluation.
TEST(OptimizeCli, RunsWithOtherSeedsShareTheVerificationOfAVariant) {
  aoc::testing::ScratchDir tmp("optimize-cli");
  const fs::path relu = aoc::testing::small_package_copy(kSrc / "ops/activation/relu", tmp.path() / "relu");
  const fs::path store = tmp.path() / "shared.sqlite";
  ::setenv("ASCENDOPT_HIDDEN_SEED", "4242", 1);
  auto run = [&](int seed) {
    return run_json("optimize " + relu.string() + " --method tune-only --budget 1 --case aligned_2d_fp16 --seed " +
                    std::to_string(seed) + " --store " + store.string() + " --out " +
                    (tmp.path() / ("s" + std::to_string(seed))).string());
  };
  const nlohmann::json first = run(1);
  EXPECT_TRUE(first["verified"].get<bool>()) << first["verification"];
  const size_t after_first = aoc::eval::ResultStore(store).count();
  EXPECT_EQ(after_first, 3u) << "the search evaluation, the public cases and the hidden draw";
  const nlohmann::json second = run(2);
  ::unsetenv("ASCENDOPT_HIDDEN_SEED");
  EXPECT_TRUE(second["verified"].get<bool>()) << second["verification"];
  EXPECT_EQ(aoc::eval::ResultStore(store).count(), after_first + 1) << "only the seed-2 search evaluation is new";
}

// A tiling that hard-codes its core count and UB budget and declares no knob, searched by the
// host arm alone: the run stops at once and says why, arm by arm, instead of spending its budget.
TEST(OptimizeCli, ARunWithNothingToSearchSaysWhy) {
  aoc::testing::ScratchDir tmp("optimize-cli");
  const fs::path add = aoc::testing::small_package_copy(kSrc / "ops/elementwise/add", tmp.path() / "add_fixed");
  fs::remove_all(add / "expert");
  std::string host = aoc::base::read_text(add / "op_host" / "add.cpp");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                                                                     "ubSize = 192 * 1024;"},
                                 {"ascendcPlatform.GetCoreNumAiv();", "8;"}}) {
    const size_t at = host.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    host.replace(at, from.size(), to);
  }
  aoc::base::write_text(add / "op_host" / "add.cpp", host);
  const nlohmann::json r = run_json("optimize " + add.string() + " --method tune-only --budget 6 --case aligned_2d_fp16 " +
                                    "--no-store --out " + (tmp.path() / "run").string());
  EXPECT_EQ(r["evaluations"], 1) << "only the baseline";
  ASSERT_FALSE(r["episodes"].empty());
  EXPECT_EQ(r["episodes"].back(),
            "stopped with 5 evaluation(s) of the budget left: nothing left to propose (host: the best variant's tiling "
            "declares no knob and reads neither the core count nor the UB size, so no configuration can be varied "
            "(docs/tune.md, declaring knobs))");
}

}  // namespace
