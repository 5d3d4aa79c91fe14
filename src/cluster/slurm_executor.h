// Tasks as the elements of Slurm job arrays: submitted with sbatch, followed with squeue (sacct
// where the cluster keeps accounting), recorded in <state_dir>/jobs.json so that a rerun waits
// for the elements still queued or running instead of submitting them again.
#pragma once
#include "cluster/executor.h"

namespace aoc::cluster {

ExecutionSummary run_slurm(const ExecutorOptions& o, const std::vector<const Task*>& todo, const IsFinished& finished,
                           const OnTaskEnd& on_end);

}  // namespace aoc::cluster
