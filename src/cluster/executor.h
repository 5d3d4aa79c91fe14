// Running tasks (task.h) that have not finished yet, either as local processes (a few at a time)
// or as Slurm job arrays (docs/cluster.md). The caller says what "finished" means (a result file
// in the task's folder), so a rerun runs only the rest, and hears of every task's end.
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/task.h"

namespace aoc::cluster {

enum class ExecutorKind { Local, Slurm };

// "local" or "slurm"; nullopt for anything else.
std::optional<ExecutorKind> parse_executor(std::string_view name);

struct SlurmOptions {
  std::string partition;                 // sbatch --partition; "" = the cluster's default
  std::string time_limit;                // sbatch --time per task, e.g. "30" or "2:00:00"; "" = the partition's
  size_t cpus_per_task = 1;              // sbatch --cpus-per-task
  std::vector<std::string> sbatch_args;  // further sbatch options, one #SBATCH line each (e.g. --account=x)
  std::string job_name = "ascendopt";
  bool dry_run = false;                  // print the scripts, submit nothing
  double poll_seconds = 2;               // how often squeue is asked
};

struct ExecutorOptions {
  ExecutorKind kind = ExecutorKind::Local;
  // Tasks at once: local processes; with Slurm the array's throttle (%N), 0 = as many as the
  // cluster gives.
  size_t jobs = 1;
  SlurmOptions slurm;
  std::filesystem::path state_dir;  // Slurm: the scripts, the submitted jobs (jobs.json), Slurm's own output
  std::function<void(const std::string&)> log;  // progress lines
};

struct TaskEnd {
  bool finished = false;  // the caller's finished() holds after the task ended
  std::string why;        // when not: what happened (exit status or Slurm state) and where its logs are
};

struct ExecutionSummary {
  size_t tasks = 0, already_finished = 0, ran = 0, failed = 0;
  std::string error;  // the executor could not run anything (no sbatch, a refused submission ...)
};

using IsFinished = std::function<bool(const Task&)>;
using OnTaskEnd = std::function<void(const Task&, const TaskEnd&)>;

// Runs every task for which finished() is false and calls on_end as each ends (in the calling
// thread). Returns when all have ended; with Slurm, tasks of an earlier invocation that are still
// queued or running are waited for, not submitted again.
ExecutionSummary run_tasks(const ExecutorOptions& o, const std::vector<Task>& tasks, const IsFinished& finished,
                           const OnTaskEnd& on_end);

}  // namespace aoc::cluster
