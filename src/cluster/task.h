// A unit of parallel work: one program run with its own folder. The executors (executor.h) run
// the same tasks as local processes or as the elements of Slurm job arrays, so what a task
// computes does not depend on where it ran.
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace aoc::cluster {

struct Task {
  std::string name;             // unique among the tasks of one run, e.g. "relu-optimize-b8-s1"
  std::filesystem::path dir;    // the task's own folder: log.txt (its stdout and stderr) and its results
  std::vector<std::string> argv;  // argv[0] is an absolute path: a cluster node runs it without a PATH search
  // Set for the task wherever it runs (the driver's other variables reach local tasks, and Slurm's
  // tasks as far as the cluster exports them).
  std::vector<std::pair<std::string, std::string>> env;
  // When set, the program's stdout goes here (its stderr alone to log.txt): written as
  // <stdout_file>.partial and renamed when the program exits (whatever its status; not when it
  // is killed), so the file never holds the output of a run cut short. Whether it is a result is
  // for the caller's finished() to judge.
  std::filesystem::path stdout_file;
};

// <stdout_file>.partial
std::filesystem::path partial_stdout(const Task& t);

}  // namespace aoc::cluster
