// The Slurm executor on a real one-node cluster (scripts/slurm-local.sh): tasks run as a job
// array; an element cancelled with scancel while it runs is reported with its Slurm state and
// logs, and the next call submits only it; a call after the driver died waits for the elements
// still running instead of submitting them again; a refused submission says why.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/process.h"
#include "cluster/executor.h"
#include "scratch_dir.h"
#include "slurm_cluster.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::cluster;

// Runs once per invocation: appends to <dir>/runs, sleeps `seconds` unless <dir>/quick exists,
// then writes <dir>/result (what "finished" means here).
Task counted_task(const fs::path& root, const std::string& name, int seconds) {
  const fs::path dir = root / name;
  fs::create_directories(dir);
  const std::string d = dir.string();
  return Task{name, dir,
              {"/bin/sh", "-c",
               "echo run >> '" + d + "/runs'; [ -e '" + d + "/quick' ] || sleep " + std::to_string(seconds) +
                   "; echo \"$WORD\" > '" + d + "/result'"},
              {{"WORD", name + "-done"}}};
}

size_t runs_of(const Task& t) {
  std::ifstream in(t.dir / "runs");
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

bool finished(const Task& t) { return fs::exists(t.dir / "result"); }

nlohmann::json submissions(const fs::path& state) {
  std::ifstream in(state / "jobs.json");
  return in ? nlohmann::json::parse(in) : nlohmann::json::array();
}

// Waits up to `seconds` for `pred`.
template <class Pred>
bool wait_for(Pred pred, double seconds = 60) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::string element_state(const std::string& element) {
  auto r = aoc::base::run_process({"squeue", "-h", "-t", "all", "-j", element, "-o", "%T"});
  while (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
  return r.output;
}

ExecutorOptions slurm_options(const fs::path& state) {
  ExecutorOptions o;
  o.kind = ExecutorKind::Slurm;
  o.state_dir = state;
  o.slurm.poll_seconds = 0.2;
  o.slurm.job_name = "aoc-test";
  return o;
}

TEST(SlurmExecutor, ACancelledElementIsReportedAndAloneSubmittedAgain) {
  aoc::testing::ScratchDir tmp("slurm-exec");
  aoc::testing::SlurmCluster cluster(tmp.path() / "cluster");
  AOC_REQUIRE_SLURM(cluster);
  const fs::path root = tmp.path() / "tasks", state = tmp.path() / "state";
  const std::vector<Task> tasks = {counted_task(root, "t0", 0), counted_task(root, "t1", 300), counted_task(root, "t2", 0)};
  std::map<std::string, TaskEnd> ends;
  std::mutex mu;
  ExecutionSummary first;
  std::thread driver([&] {
    first = run_tasks(slurm_options(state), tasks, finished, [&](const Task& t, const TaskEnd& e) {
      std::lock_guard lock(mu);
      ends[t.name] = e;
    });
  });
  std::string job;
  ASSERT_TRUE(wait_for([&] {
    const auto subs = submissions(state);
    if (subs.empty()) return false;
    job = subs[0]["job"].get<std::string>();
    return element_state(job + "_1") == "RUNNING" && runs_of(tasks[1]) == 1;
  })) << "element 1 never ran";
  EXPECT_EQ(aoc::base::run_process({"scancel", job + "_1"}).exit_code, 0);
  driver.join();
  EXPECT_EQ(first.ran, 3u);
  EXPECT_EQ(first.failed, 1u);
  ASSERT_EQ(ends.size(), 3u);
  EXPECT_TRUE(ends.at("t0").finished);
  EXPECT_TRUE(ends.at("t2").finished);
  const std::string why = ends.at("t1").why;
  EXPECT_NE(why.find("Slurm state CANCELLED"), std::string::npos) << why;
  EXPECT_NE(why.find((tasks[1].dir / "log.txt").string()), std::string::npos) << why;
  EXPECT_NE(why.find("slurm-" + job + "_1.out"), std::string::npos) << why;
  std::ifstream result(tasks[0].dir / "result");
  std::string word;
  std::getline(result, word);
  EXPECT_EQ(word, "t0-done") << "the task's variables reach it on the node";

  // The rerun submits the cancelled task alone; the finished ones do not run again.
  std::ofstream(tasks[1].dir / "quick").put('\n');
  ends.clear();
  const auto second = run_tasks(slurm_options(state), tasks, finished, [&](const Task& t, const TaskEnd& e) { ends[t.name] = e; });
  EXPECT_EQ(second.already_finished, 2u);
  EXPECT_EQ(second.failed, 0u);
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_TRUE(ends.at("t1").finished);
  const auto subs = submissions(state);
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[1]["tasks"], nlohmann::json::array({"t1"}));
  EXPECT_EQ(runs_of(tasks[0]), 1u);
  EXPECT_EQ(runs_of(tasks[1]), 2u);
  EXPECT_EQ(runs_of(tasks[2]), 1u);
}

TEST(SlurmExecutor, ARerunWaitsForElementsStillRunningInsteadOfSubmittingThem) {
  aoc::testing::ScratchDir tmp("slurm-adopt");
  aoc::testing::SlurmCluster cluster(tmp.path() / "cluster");
  AOC_REQUIRE_SLURM(cluster);
  const fs::path root = tmp.path() / "tasks", state = tmp.path() / "state";
  const std::vector<Task> tasks = {counted_task(root, "slow", 4)};
  // A driver that dies after submitting: the element runs on.
  const pid_t child = ::fork();
  if (child == 0) {
    run_tasks(slurm_options(state), tasks, finished, [](const Task&, const TaskEnd&) {});
    ::_exit(0);
  }
  ASSERT_TRUE(wait_for([&] { return !submissions(state).empty(); }));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  std::vector<std::string> lines;
  ExecutorOptions o = slurm_options(state);
  o.log = [&](const std::string& l) { lines.push_back(l); };
  TaskEnd end;
  const auto s = run_tasks(o, tasks, finished, [&](const Task&, const TaskEnd& e) { end = e; });
  EXPECT_TRUE(end.finished) << end.why;
  EXPECT_EQ(s.failed, 0u);
  EXPECT_EQ(submissions(state).size(), 1u) << "nothing submitted again";
  EXPECT_EQ(runs_of(tasks[0]), 1u);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("still queued or running: waiting for them"), std::string::npos) << lines[0];
}

TEST(SlurmExecutor, ARefusedSubmissionSaysWhy) {
  aoc::testing::ScratchDir tmp("slurm-refused");
  aoc::testing::SlurmCluster cluster(tmp.path() / "cluster");
  AOC_REQUIRE_SLURM(cluster);
  const std::vector<Task> tasks = {counted_task(tmp.path() / "tasks", "t", 0)};
  ExecutorOptions o = slurm_options(tmp.path() / "state");
  o.slurm.partition = "no-such-partition";
  TaskEnd end;
  const auto s = run_tasks(o, tasks, finished, [&](const Task&, const TaskEnd& e) { end = e; });
  EXPECT_EQ(s.failed, 1u);
  EXPECT_NE(s.error.find("sbatch refused"), std::string::npos) << s.error;
  EXPECT_NE(s.error.find("partition"), std::string::npos) << s.error;
  EXPECT_EQ(end.why, s.error);
  EXPECT_EQ(runs_of(tasks[0]), 0u);
}

}  // namespace
