// The scripts a Slurm submission is made of: one shell script per task (what the local executor
// would run, with its environment and log written out), and the job-array script that runs the
// script of its element. Both are plain text a user can read, rerun by hand or submit again.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

#include "cluster/executor.h"

namespace aoc::cluster {

// `s` as one shell word: in single quotes, a quote written '\''.
std::string shell_quote(const std::string& s);

// The file a task script leaves in the task's folder with the program's exit status.
inline constexpr const char* kExitStatusFile = "exit_status";

// Runs the task from `cwd` with its variables set, stdout and stderr to <dir>/log.txt, and
// writes the exit status to <dir>/exit_status.
std::string task_script(const Task& t, const std::filesystem::path& cwd);

// An array of `count` elements (0..count-1), at most `throttle` at once (0: no limit), each
// running <submission_dir>/task-<index>.sh; Slurm's own output goes to
// <submission_dir>/slurm-<job>_<index>.out.
std::string array_script(const SlurmOptions& o, size_t count, size_t throttle, const std::filesystem::path& submission_dir,
                         const std::filesystem::path& cwd);

// <submission_dir>/task-<index>.sh
std::filesystem::path task_script_path(const std::filesystem::path& submission_dir, size_t index);

}  // namespace aoc::cluster
