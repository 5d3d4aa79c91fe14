// A lower bound on a case's Task Duration from what the case must write, independent of the
// traces: the timing engine cannot simulate an honest run of the case in less, whatever the
// kernel recorded. The evaluator compares the simulated time with it (docs/simulator.md,
// "Write bound"); a time below it means the trace under-reports the work.
#pragma once
#include <string>

#include "sim/soc.h"

namespace aoc::sim {

struct WriteBound {
  double fixed_us = 0;           // launch work every task pays: dispatch, one block's start and end, end response
  double bytes_per_cycle = 0;    // the chip's highest GM write rate (DMA into L2 plus every core's scalar stores)
  double written_bytes = 0;      // GM bytes the case was seen to write
  double time_us = 0;            // fixed_us + written_bytes at bytes_per_cycle
  std::string formula() const;   // the figures, for messages
};

// Widest scalar element a single GM access moves (int64, double).
constexpr double kMaxScalarAccessBytes = 8;

// The chip-wide peak rate at which GM can be written in the model, bytes per cycle: DMA writes
// all draw from the L2 write pool (a write always lands in L2; evicted dirty lines go back to HBM
// in the background, which no pipe waits for), capped by the per-core rates of the paths into GM,
// plus scalar stores, which bypass the pools and cost each core at least one scalar op each.
double peak_gm_write_bytes_per_cycle(const Soc& soc);

// The least Task Duration of a task that writes `written_bytes` of GM.
WriteBound write_bound(const Soc& soc, double written_bytes);

}  // namespace aoc::sim
