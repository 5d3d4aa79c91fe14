#include "cli/executor_flags.h"

#include "build/compiler_sandbox.h"

namespace aoc::cli {

void add_executor_flags(CLI::App* cmd, ExecutorFlags& f) {
  f.cmd = cmd;
  const std::string group = "Executor (docs/cluster.md)";
  cmd->add_option("--executor", f.executor,
                  "Where the tasks run: local (processes on this machine) or slurm (a job array submitted with sbatch; "
                  "the driver waits, gathers and resumes)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--partition", f.partition, "Slurm: the partition (default: the cluster's)")->group(group);
  cmd->add_option("--time-limit", f.time_limit, "Slurm: each task's time limit, as sbatch --time takes it (e.g. 30, 2:00:00)")
      ->group(group);
  cmd->add_option("--cpus-per-task", f.cpus_per_task, "Slurm: CPUs per task")->capture_default_str()->group(group);
  cmd->add_option("--sbatch-arg", f.sbatch_args,
                  "Slurm: a further sbatch option for the job array, e.g. --sbatch-arg=--account=kernels (repeatable)")
      ->allow_extra_args(false)
      ->group(group);
  cmd->add_flag("--dry-run", f.dry_run, "Slurm: print the job-array script and a task's script, submit nothing")->group(group);
  cmd->add_option("--poll-seconds", f.poll_seconds, "Slurm: how often squeue is asked")->capture_default_str()->group(group);
}

std::optional<aoc::cluster::ExecutorOptions> executor_options(const ExecutorFlags& f, size_t jobs,
                                                              const std::filesystem::path& state_dir, std::string& error) {
  aoc::cluster::ExecutorOptions o;
  o.kind = *aoc::cluster::parse_executor(f.executor);
  o.state_dir = state_dir;
  const bool slurm = o.kind == aoc::cluster::ExecutorKind::Slurm;
  if (!slurm && f.cmd != nullptr)
    for (const char* name : {"--partition", "--time-limit", "--cpus-per-task", "--sbatch-arg", "--dry-run", "--poll-seconds"})
      if (f.cmd->count(name) > 0) {
        error = std::string(name) + " applies to --executor slurm only";
        return std::nullopt;
      }
  if (f.cpus_per_task == 0) {
    error = "--cpus-per-task must be at least 1";
    return std::nullopt;
  }
  if (!(f.poll_seconds > 0) || f.poll_seconds > 3600) {
    error = "--poll-seconds must be between 0 and 3600 seconds";
    return std::nullopt;
  }
  if (slurm && !f.dry_run)
    for (const char* program : {"sbatch", "squeue"})
      if (aoc::build::program_path(program).empty()) {
        error = std::string(program) + " is not on PATH: --executor slurm runs on a machine that can submit to a Slurm "
                "cluster (Debian: apt-get install slurm-client, and SLURM_CONF naming the cluster's slurm.conf); "
                "or use --executor local";
        return std::nullopt;
      }
  o.jobs = slurm ? jobs : std::max<size_t>(1, jobs);
  o.slurm.partition = f.partition;
  o.slurm.time_limit = f.time_limit;
  o.slurm.cpus_per_task = f.cpus_per_task;
  o.slurm.sbatch_args = f.sbatch_args;
  o.slurm.dry_run = f.dry_run;
  o.slurm.poll_seconds = f.poll_seconds;
  return o;
}

}  // namespace aoc::cli
