// Tasks as child processes of this one, up to `jobs` at once.
#pragma once
#include "cluster/executor.h"

namespace aoc::cluster {

ExecutionSummary run_local(const ExecutorOptions& o, const std::vector<const Task*>& todo, const IsFinished& finished,
                           const OnTaskEnd& on_end);

}  // namespace aoc::cluster
