// Steady-state skipping for the timing engine. A kernel's tile loop repeats the same
// instructions, and once every core has settled into it the engine's whole state (what each
// pipe is doing, its queue, flags in flight, every transfer's bytes left and rate) repeats from
// one iteration to the next, shifted in time and in record index. The detector watches for that:
// each time one block (the anchor) issues a chosen record it takes a snapshot of the state
// relative to the current time and to each block's next record; when a snapshot equals an
// earlier one, the window between them is a period: T cycles, in which block b issued d_b
// records. If every block's trace keeps repeating with its d_b (record signatures,
// sim/record_signature.h) for N more periods, and the L2 lookups those periods make give the
// same hits, misses and write-backs as the window's (replayed on the L2 itself, so it ends up as
// full simulation would leave it), the N periods are skipped: each block's record indices move on
// by N * d_b, its busy times and instruction counts grow by N times the window's, and the blocks'
// times are N * T later than the engine's clock (added when they finish). The engine then runs
// on as before: the tail, and anything that stops repeating, is simulated instruction by
// instruction. A window whose L2 outcomes change part way (a working set that fills L2) is
// skipped up to that period only.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/bandwidth.h"
#include "sim/engine_state.h"
#include "sim/l2_cache.h"

namespace aoc::sim::detail {

// The engine's state at one moment, relative to it and to each block's next record.
struct Snapshot {
  double now = 0;
  std::vector<int64_t> ints;  // modes, queue contents, counts: must be equal
  std::vector<double> reals;  // times, bytes, rates: equal within rounding
  uint64_t hash = 0;          // of ints
  std::vector<size_t> next, low;  // per block: next record to issue, lowest record the state refers to
  std::vector<std::array<double, kPipes>> busy;
  std::vector<uint64_t> instructions;
  size_t lookups = 0;  // L2 lookups logged before it
  uint64_t hit = 0;    // the anchor's hits before it
};

// One L2 lookup of a transfer, as the window logged it.
struct L2Access {
  uint32_t block, rec;
  bool write;
  L2Outcome outcome;
};

class SteadyState {
 public:
  explicit SteadyState(uint64_t gm_phase) : gm_phase_(gm_phase) {}

  // Fills c.sig.
  void decode(Ctx& c) const;

  // The engine issued record idx of block c.
  void issued(const Ctx& c, size_t idx) {
    if (&c == anchor_ && c.sig[idx] == anchor_sig_) due_ = true;
  }
  // A transfer of block `block` (record rec) started; `l` is what it did in L2.
  void looked_up(uint32_t block, uint32_t rec, const L2Lookup& l) {
    if (l.looked_up) log_.push_back({block, rec, l.write, l.outcome});
  }

  // Called once per event time, when the rates are set: takes a snapshot if the anchor came
  // round and skips the periods it can. Returns whether it skipped.
  bool at_event(std::vector<Ctx>& ctxs, Bandwidth& bw, double now);

  double skipped_cycles() const { return skipped_cycles_; }
  uint64_t skipped_instructions() const { return skipped_instructions_; }

 private:
  void arm(std::vector<Ctx>& ctxs);
  Snapshot capture(const std::vector<Ctx>& ctxs, const Bandwidth& bw, double now);
  bool try_skip(std::vector<Ctx>& ctxs, Bandwidth& bw, const Snapshot& a, const Snapshot& b);
  uint64_t periods_in_traces(const std::vector<Ctx>& ctxs, const Snapshot& a, const Snapshot& b,
                             const std::vector<size_t>& stride) const;
  uint64_t replay_l2(const std::vector<Ctx>& ctxs, Bandwidth& bw, const Snapshot& a, const Snapshot& b,
                     const std::vector<size_t>& stride, uint64_t periods);
  void shift(std::vector<Ctx>& ctxs, const Snapshot& a, const Snapshot& b, const std::vector<size_t>& stride,
             uint64_t periods);
  void forget_before(size_t lookups);

  uint64_t gm_phase_;
  const Ctx* anchor_ = nullptr;  // the block whose issue of anchor_sig_ takes snapshots
  uint64_t anchor_sig_ = 0;
  size_t armed_at_ = 0;          // the anchor's next record when it was chosen
  size_t rearm_ = 0;             // records the anchor has to come round twice in
  bool due_ = false;
  uint64_t hits_ = 0;            // anchor records issued since it was chosen
  uint64_t stride_ = 1;          // a snapshot at every stride_-th of them
  uint64_t misses_ = 0;          // snapshots in a row that matched no earlier one
  uint64_t cooldown_ = 0;        // anchor hits to let pass after an L2 outcome changed
  std::vector<Snapshot> ring_;   // the latest snapshots, oldest first
  std::vector<L2Access> log_;    // L2 lookups since log_base_
  size_t log_base_ = 0;
  double skipped_cycles_ = 0;
  uint64_t skipped_instructions_ = 0;
};

}  // namespace aoc::sim::detail
