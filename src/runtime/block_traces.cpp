#include "runtime/block_traces.h"

namespace aoc::runtime {

std::vector<aoc::sim::BlockTrace> block_traces(const std::vector<CoreRun>& cores) {
  std::vector<aoc::sim::BlockTrace> blocks;
  blocks.reserve(cores.size());
  for (const auto& core : cores)
    blocks.push_back({&core.trace, core.core_type == 1 ? aoc::sim::CoreType::AIC : aoc::sim::CoreType::AIV});
  return blocks;
}

}  // namespace aoc::runtime
