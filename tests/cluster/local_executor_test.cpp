// The local executor: tasks as processes with their variables, logs in their folders, only the
// unfinished ones run, a failed one reported with its exit status and log.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "cluster/executor.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::cluster;

Task shell_task(const fs::path& root, const std::string& name, const std::string& script) {
  return Task{name, root / name, {"/bin/sh", "-c", script}, {{"TASK_WORD", name + "-word"}}};
}

TEST(LocalExecutor, RunsWhatIsNotFinishedAndReportsFailures) {
  aoc::testing::ScratchDir tmp("local-exec");
  const fs::path root = tmp.path();
  std::vector<Task> tasks;
  for (const char* n : {"a", "b"})
    tasks.push_back(shell_task(root, n, "echo \"$TASK_WORD\" > " + (root / n / "result").string() + "; echo ran >> " +
                                            (root / "ran").string()));
  tasks.push_back(shell_task(root, "c", "echo to the log; exit 3"));
  auto finished = [](const Task& t) { return fs::exists(t.dir / "result"); };
  std::map<std::string, TaskEnd> ends;
  ExecutorOptions o;
  o.jobs = 2;
  auto s = run_tasks(o, tasks, finished, [&](const Task& t, const TaskEnd& e) { ends[t.name] = e; });
  EXPECT_EQ(s.tasks, 3u);
  EXPECT_EQ(s.ran, 3u);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_TRUE(ends.at("a").finished);
  EXPECT_FALSE(ends.at("c").finished);
  EXPECT_NE(ends.at("c").why.find("exit status 3"), std::string::npos) << ends.at("c").why;
  EXPECT_NE(ends.at("c").why.find((root / "c" / "log.txt").string()), std::string::npos) << ends.at("c").why;
  std::ifstream log(root / "c" / "log.txt");
  std::string line;
  std::getline(log, line);
  EXPECT_EQ(line, "to the log");
  std::ifstream result(root / "a" / "result");
  std::getline(result, line);
  EXPECT_EQ(line, "a-word");

  // A second call runs only the one that has not finished.
  ends.clear();
  s = run_tasks(o, tasks, finished, [&](const Task& t, const TaskEnd& e) { ends[t.name] = e; });
  EXPECT_EQ(s.already_finished, 2u);
  EXPECT_EQ(s.ran, 1u);
  EXPECT_EQ(ends.size(), 1u);
  std::ifstream ran(root / "ran");
  size_t lines = 0;
  while (std::getline(ran, line)) ++lines;
  EXPECT_EQ(lines, 2u);
}

TEST(LocalExecutor, AProgramThatCannotStartIsAFailure) {
  aoc::testing::ScratchDir tmp("local-exec-missing");
  std::vector<Task> tasks = {Task{"x", tmp.path() / "x", {"/no/such/program"}, {}}};
  TaskEnd end;
  const auto s = run_tasks(ExecutorOptions{}, tasks, [](const Task&) { return false; },
                           [&](const Task&, const TaskEnd& e) { end = e; });
  EXPECT_EQ(s.failed, 1u);
  EXPECT_NE(end.why.find("could not be started"), std::string::npos) << end.why;
}

}  // namespace
