// What of a trace record the timing engine's result can depend on, hashed: two records with the
// same signature cost the same and schedule the same, wherever they sit in a trace. The
// steady-state detector (sim/steady_state.h) compares them to find where a block's trace repeats
// itself. Everything but the GM addresses goes in as it is; a GM range goes in by its length and
// its start's offset within gm_phase bytes (the alignment the cost model looks at), because a
// tile loop moves through GM and would never repeat otherwise. Where GM data sits in L2 is not
// in the signature: the detector replays those lookups instead.
#pragma once
#include <cstdint>

#include "aoc/trace.h"
#include "sim/soc.h"

namespace aoc::sim {

// The GM alignment period the costs of `soc` can see: a power of two at least 4096 and at least
// the largest alignment of its efficiency table.
uint64_t gm_phase_bytes(const Soc& soc);

uint64_t timing_signature(const aoc::TraceRecord& r, uint64_t gm_phase);

}  // namespace aoc::sim
