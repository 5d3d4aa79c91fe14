#include "cluster/executor.h"

#include "cluster/local_executor.h"
#include "cluster/slurm_executor.h"

namespace aoc::cluster {

std::optional<ExecutorKind> parse_executor(std::string_view name) {
  if (name == "local") return ExecutorKind::Local;
  if (name == "slurm") return ExecutorKind::Slurm;
  return std::nullopt;
}

ExecutionSummary run_tasks(const ExecutorOptions& o, const std::vector<Task>& tasks, const IsFinished& finished,
                           const OnTaskEnd& on_end) {
  std::vector<const Task*> todo;
  for (const auto& t : tasks)
    if (!finished(t)) todo.push_back(&t);
  ExecutionSummary s = o.kind == ExecutorKind::Slurm ? run_slurm(o, todo, finished, on_end)
                                                     : run_local(o, todo, finished, on_end);
  s.tasks = tasks.size();
  s.already_finished = tasks.size() - todo.size();
  return s;
}

}  // namespace aoc::cluster
