// `ascendopt bench --executor slurm` on a real one-node cluster (scripts/slurm-local.sh) against
// `--executor local` on the same operators and seeds: every run's speedup, times and verdict are
// the same. One element is cancelled with scancel while the benchmark waits; the driver reports
// it with its Slurm state and logs, and the rerun submits that run alone, leaving the finished
// runs' reports as they were.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "optimize/small_package.h"
#include "scratch_dir.h"
#include "slurm_cluster.h"

namespace {

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

nlohmann::json jobs_of(const fs::path& out) {
  std::ifstream in(out / "slurm" / "jobs.json");
  return in ? nlohmann::json::parse(in) : nlohmann::json::array();
}

std::string table(const std::string& out) { return out.substr(std::min(out.size(), out.find("geomean speedup"))); }

TEST(SlurmBench, SameResultsAsLocalAndACancelledRunResumes) {
  aoc::testing::ScratchDir tmp("slurm-bench");
  aoc::testing::SlurmCluster cluster(tmp.path() / "cluster");
  AOC_REQUIRE_SLURM(cluster);
  const fs::path ops = fs::path(AOC_SOURCE_DIR) / "ops/activation";
  const fs::path relu = aoc::testing::small_package_copy(ops / "relu", tmp.path() / "relu");
  const fs::path gelu = aoc::testing::small_package_copy(ops / "gelu", tmp.path() / "gelu");
  const fs::path local = tmp.path() / "local", slurm = tmp.path() / "slurm";
  const std::string common = "ASCENDOPT_HIDDEN_SEED=4242 " + aoc::testing::ascendopt_binary().string() + " bench " +
                             relu.string() + " " + gelu.string() + " --methods optimize,best-of-n --budgets 2 --seeds 1";
  const auto l = aoc::testing::run_command(common + " --jobs 2 --out " + local.string() + " 2>&1");
  ASSERT_EQ(l.status, 0) << l.out;

  // Held at submission, so that one element can be cancelled before any has run.
  const std::string slurm_bench = common + " --executor slurm --poll-seconds 0.2 --out " + slurm.string();
  auto first = std::async(std::launch::async, [&] { return aoc::testing::run_command(slurm_bench + " --sbatch-arg=--hold 2>&1"); });
  std::string job;
  for (int i = 0; i < 600 && job.empty(); ++i) {
    const auto jobs = jobs_of(slurm);
    if (!jobs.empty()) job = jobs[0]["job"].get<std::string>();
    else std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(job.empty()) << "nothing was submitted";
  const auto names = jobs_of(slurm)[0]["tasks"].get<std::vector<std::string>>();
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(aoc::testing::run_command("scancel " + job + "_1 2>&1").status, 0);
  EXPECT_EQ(aoc::testing::run_command("scontrol release " + job + " 2>&1").status, 0);
  const auto f = first.get();
  EXPECT_EQ(f.status, 1) << f.out;
  EXPECT_NE(f.out.find(names[1] + ": failed, Slurm state CANCELLED"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find((slurm / "runs" / names[1] / "log.txt").string()), std::string::npos) << f.out;
  std::map<std::string, std::string> reports;
  for (const auto& n : names)
    if (n != names[1]) {
      ASSERT_TRUE(fs::exists(slurm / "runs" / n / "report.json")) << n << "\n" << f.out;
      reports[n] = text_of(slurm / "runs" / n / "report.json");
    }

  const auto again = aoc::testing::run_command(slurm_bench + " 2>&1");
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("3 of 4 run(s) already finished; running 1 as Slurm tasks"), std::string::npos) << again.out;
  const auto jobs = jobs_of(slurm);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1]["tasks"], nlohmann::json::array({names[1]}));
  for (const auto& [n, report] : reports) EXPECT_EQ(text_of(slurm / "runs" / n / "report.json"), report) << n;

  // Every run found what the local executor found, and the figures agree.
  for (const auto& n : names) {
    const auto a = nlohmann::json::parse(text_of(local / "runs" / n / "report.json"));
    const auto b = nlohmann::json::parse(text_of(slurm / "runs" / n / "report.json"));
    for (const char* key : {"speedup", "baseline_us", "best_us", "verified"}) EXPECT_EQ(a.at(key), b.at(key)) << n << " " << key;
  }
  EXPECT_EQ(table(again.out), table(l.out));
  // The driver merged each task's own result store into the benchmark's.
  EXPECT_GT(fs::file_size(slurm / "results.sqlite"), 0u);
}

TEST(SlurmBench, DryRunPrintsTheScriptsAndSubmitsNothing) {
  aoc::testing::ScratchDir tmp("slurm-dry");
  const fs::path relu = fs::path(AOC_SOURCE_DIR) / "ops/activation/relu";
  const auto r = run_ascendopt("bench " + relu.string() + " --methods best-of-n --budgets 2 --executor slurm --dry-run " +
                               "--partition npu --time-limit 30 --sbatch-arg=--account=kernels --out " +
                               (tmp.path() / "b").string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* line : {"#SBATCH --array=0-0\n", "#SBATCH --partition=npu\n", "#SBATCH --time=30\n",
                           "#SBATCH --account=kernels\n", "' 'optimize' '", "export ASCENDOPT_HIDDEN_SEED="})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  EXPECT_FALSE(fs::exists(tmp.path() / "b" / "slurm" / "jobs.json"));
  // Without Slurm's commands the executor refuses at once and says what to install.
  const auto no_slurm = aoc::testing::run_command("PATH=/nonexistent " + aoc::testing::ascendopt_binary().string() +
                                                  " bench " + relu.string() + " --executor slurm --out " +
                                                  (tmp.path() / "d").string() + " 2>&1");
  EXPECT_EQ(no_slurm.status, 2);
  EXPECT_NE(no_slurm.out.find("sbatch is not on PATH"), std::string::npos) << no_slurm.out;
  EXPECT_NE(no_slurm.out.find("slurm-client"), std::string::npos) << no_slurm.out;
  const auto wrong = run_ascendopt("bench " + relu.string() + " --partition npu --out " + (tmp.path() / "c").string());
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.out.find("--partition applies to --executor slurm only"), std::string::npos) << wrong.out;
}

}  // namespace
