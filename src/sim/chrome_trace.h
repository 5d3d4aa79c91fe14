// Chrome / Perfetto trace JSON of a simulated launch: one process per block, one thread
// (lane) per pipe, one slice per instruction, and flow arrows from each SetFlag to the
// WaitFlag it released.
#pragma once
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "aoc/trace.h"
#include "sim/engine.h"
#include "sim/soc.h"

namespace aoc::sim {

// `traces[i]` is the trace of block i (the same order as given to simulate()); the result
// must have been produced with EngineOptions::record_spans.
nlohmann::json chrome_trace(const Soc& soc, const std::vector<const aoc::Trace*>& traces, const SimResult& r);
void write_chrome_trace(std::ostream& os, const Soc& soc, const std::vector<const aoc::Trace*>& traces,
                        const SimResult& r);

}  // namespace aoc::sim
