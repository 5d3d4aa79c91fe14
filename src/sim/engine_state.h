// The timing engine's per-block state (sim/engine.cpp), shared with the steady-state detector
// (sim/steady_state.h), which reads it to recognise a repeating state and shifts its record
// indices to skip the repeats. Not part of the engine's interface.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "aoc/trace.h"
#include "sim/cost_model.h"
#include "sim/engine.h"
#include "sim/fifo.h"

namespace aoc::sim::detail {

using aoc::Pipe;
using aoc::RecKind;
using aoc::Trace;
constexpr double kInf = std::numeric_limits<double>::infinity();

enum class PipeMode : uint8_t { Idle, Fixed, FlowPending, Flowing };

struct FlagEntry {
  double time;
  uint32_t rec;
};

struct PipeState {
  Fifo<uint32_t> queue;  // issued records waiting for this pipe
  PipeMode mode = PipeMode::Idle;
  double until = 0;     // Fixed: end of occupancy; FlowPending: when bytes start to move
  double last_done = 0; // latest completion of everything this pipe has started
  double cur_start = 0;
  double cur_latency = 0;
  double pending_bytes = 0, pending_cap = 0;
  Resource pending_res = Resource::None;
  uint32_t pending_rec = 0;
  int span = -1;
  int flow = -1;  // its transfer's slot in Engine::bw_ while moving data
  uint64_t ub_banks = 0;  // V: the UB banks of the instruction in progress (cost_model.h)
};

// What scheduling reads of a record, in six bytes: most records are flags, which need no more,
// and the records themselves (200 bytes each, hundreds of MB for a large kernel) are mostly out
// of cache by the time a pipe reaches them.
struct Op {
  RecKind kind;
  Pipe pipe;
  Pipe peer;
  uint8_t event_id;
  uint16_t flag;  // SetFlag/WaitFlag: the block's queue of (pipe, peer, event_id) in Ctx::flags
};

struct Ctx {
  uint32_t block = 0;
  const Trace* trace = nullptr;
  std::vector<Op> ops;  // by record index
  std::vector<uint64_t> sig;  // by record index, timing_signature(); empty when no period is sought
  CoreType type = CoreType::AIV;
  uint32_t phys = 0;
  int wave = 0;
  int successor = -1;  // next block on the same physical core
  bool active = false, finished = false;
  double end_shift = 0;  // cycles skipped in steady state before the block finished (added to res.end)
  uint64_t visited_pass = 0;  // the last pass that progressed this block (at most once per pass)
  bool sync_arrived = false;
  double sync_time = 0;
  size_t next = 0;  // next record to issue
  size_t nrec = 0;  // records in the trace
  double s_free = 0;
  double next_time = kInf;
  std::array<PipeState, kPipes> pipes;
  // Per pipe, poll_time() of its state: a block's visit checks its pipes several times over and
  // reads only these eight doubles to find the ones that may act.
  std::array<double, kPipes> poll;
  std::vector<Fifo<FlagEntry>> flags;  // by Op::flag
  BlockResult res;
};

}  // namespace aoc::sim::detail
