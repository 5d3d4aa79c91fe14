// The options of the commands that fan work out (bench, rewind, tune-bench): where the tasks run
// (--executor local|slurm) and, with Slurm, how they are submitted (docs/cluster.md).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cluster/executor.h"

namespace aoc::cli {

struct ExecutorFlags {
  std::string executor = "local";
  std::string partition, time_limit;
  size_t cpus_per_task = 1;
  std::vector<std::string> sbatch_args;
  bool dry_run = false;
  double poll_seconds = 2;
  CLI::App* cmd = nullptr;  // to tell which options were given
};

void add_executor_flags(CLI::App* cmd, ExecutorFlags& f);

// The executor the flags describe; `jobs` is the command's --jobs (0 when not given: one process
// locally, no throttle on Slurm); its Slurm state goes to `state_dir`. nullopt with `error` set
// when the flags are wrong or Slurm's commands are missing.
std::optional<aoc::cluster::ExecutorOptions> executor_options(const ExecutorFlags& f, size_t jobs,
                                                              const std::filesystem::path& state_dir, std::string& error);

}  // namespace aoc::cli
