// The synchronisation the device toolchain inserts on its own: a scalar read of local memory
// (GetValue) right after a vector instruction or a copy wrote those bytes, with no SetFlag/
// WaitFlag in between, gets the pipe-to-scalar wait from the compiler, so on the device it reads
// the written value. The functional run already reads it (it is sequential); this adds the wait
// to the trace, so the hazard checker sees the order the device has and the timing engine
// charges the stall, and reports each such place as a warning: an explicit
// SetFlag/WaitFlag<HardEvent::X_S> states the intent and does not depend on the toolchain.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "aoc/trace.h"

namespace aoc::runtime {

// Inserts implicit SetFlag/WaitFlag (writer pipe -> S) records before every scalar read that
// races with an earlier write of another pipe in `trace` (one core's), and adds one warning per
// pair of call sites to `warnings` (message -> times).
void insert_toolchain_syncs(aoc::Trace& trace, std::map<std::string, uint64_t>& warnings);

}  // namespace aoc::runtime
