// `ascendopt rewind --executor slurm`: each kernel is rewound by a task of its own (the same
// `ascendopt rewind` on that kernel alone), mining into a copy of the bank taken before it ran;
// the driver, the only writer of the bank, merges what each task found in kernel order, so entry
// ids do not depend on which task finished first (docs/cluster.md).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "bank/store.h"
#include "cluster/executor.h"
#include "rewind/rewind.h"

namespace aoc::cli {

struct RewindTasksOptions {
  std::vector<std::string> dirs;          // the kernels, one task each
  std::vector<std::string> common_args;   // what every task's `rewind` gets besides its kernel (threshold, seed ...)
  bool no_store = false;                  // else each task keeps its own result store
  std::filesystem::path work_dir;         // tasks in <work_dir>/tasks/<name> (rewind: <work dir>/cluster)
  std::filesystem::path program;          // the ascendopt executable
  aoc::cluster::ExecutorOptions executor;
};

struct RewindTasksResult {
  std::vector<aoc::rewind::RewindResult> results;  // of the kernels whose task finished, entry ids of `bank`
  std::vector<std::string> failed;                 // one line per kernel whose task did not finish
};

RewindTasksResult rewind_as_tasks(const RewindTasksOptions& o, aoc::bank::Bank& bank);

}  // namespace aoc::cli
