// Discrete-event timing engine. Schedules the instruction traces of all blocks of a
// launch on the SoC model: per core, the scalar unit issues records in program order
// into bounded in-order pipe queues; pipes execute in order; flags, barriers and
// SyncAll order them; data movement shares chip bandwidth with every other core
// moving data at the same time. Deterministic: same traces, same cycle counts.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "aoc/trace.h"
#include "sim/soc.h"

namespace aoc::sim {

enum class CoreType : uint8_t { AIV = 0, AIC };
constexpr int kPipes = int(aoc::Pipe::Count);

struct BlockTrace {
  const aoc::Trace* trace = nullptr;
  CoreType type = CoreType::AIV;
};

struct EngineOptions {
  bool record_spans = true;  // keep per-instruction timing (Chrome trace); off for large batch runs
  // Skip the iterations of a loop once the whole state repeats (sim/steady_state.h); false forces
  // simulation of every instruction. Not with record_spans: a Chrome trace shows every one.
  bool steady_state = true;
};

// One executed instruction: [start, end) is the time its pipe was occupied; `done` is
// when its result became visible (end + latency).
struct Span {
  uint32_t block = 0;
  aoc::Pipe pipe = aoc::Pipe::S;
  uint32_t rec = 0;  // index into the block's trace
  double start = 0, end = 0, done = 0;
};

// A SetFlag -> WaitFlag pair that actually ordered two pipes.
struct FlagArrow {
  uint32_t block = 0;
  aoc::Pipe src = aoc::Pipe::S, dst = aoc::Pipe::S;
  uint32_t set_rec = 0, wait_rec = 0;
  double set_time = 0, wait_time = 0;
};

struct BlockResult {
  uint32_t block = 0;
  uint32_t physical_core = 0;  // index among cores of the same type
  CoreType type = CoreType::AIV;
  double start = 0, end = 0;   // cycles, from the start of the kernel body
  std::array<double, kPipes> busy{};  // cycles each pipe was occupied
  uint64_t instructions = 0;
};

struct SimResult {
  double cycles = 0;          // end of the last block
  double launch_us = 0;       // scheduler time before the first block starts and after the last ends
  double task_duration_us = 0;
  int waves = 1;
  uint64_t skipped_instructions = 0;  // counted in steady state rather than simulated one by one
  std::vector<BlockResult> blocks;
  std::vector<Span> spans;
  std::vector<FlagArrow> arrows;
};

// Throws SimError on a deadlock (a WaitFlag that no SetFlag satisfies, mismatched SyncAll),
// naming the blocked block, pipe and record.
SimResult simulate(const Soc& soc, const std::vector<BlockTrace>& blocks, const EngineOptions& opt = {});

}  // namespace aoc::sim
