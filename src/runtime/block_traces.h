// The per-core traces of a launch as the timing engine takes them (one BlockTrace per core,
// typed by the core it ran on). The BlockTraces point into `cores`, which must outlive them.
#pragma once
#include <vector>

#include "aoc/launch.h"
#include "sim/engine.h"

namespace aoc::runtime {

std::vector<aoc::sim::BlockTrace> block_traces(const std::vector<CoreRun>& cores);

}  // namespace aoc::runtime
