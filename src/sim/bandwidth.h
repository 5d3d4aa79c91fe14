// Shared bandwidth: the transfers (flows) of every core that move data at the same time, each
// drawing on one pool (HBM, or L2 when all its GM bytes hit) with a per-core cap. Each pool's
// capacity is divided among its flows by max-min fair share, recomputed only for pools whose
// flows, caps or capacity changed. The engine starts flows, asks when the next one finishes and
// moves time on; which pool a transfer draws on is decided here too, by looking its GM side up
// in the L2 model when its bytes start to move.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <vector>

#include "aoc/trace.h"
#include "sim/cost_model.h"
#include "sim/l2_cache.h"
#include "sim/pool_order.h"
#include "sim/share_chains.h"
#include "sim/soc.h"

namespace aoc::sim {

// A transfer drawing on shared bandwidth. Its bytes left, rate and estimated finish, touched at
// every event, live in arrays of their own (Bandwidth::remaining_ ...) at the same index.
struct Flow {
  uint32_t ctx;  // the block that moves the data
  int pipe;      // kBackground: an L2 write-back that no pipe waits for
  double bytes;  // effective bytes to move, until the flow is added
  double cap;
  Resource res;
  bool hbm_write = false;  // write-backs of dirty L2 lines
  uint64_t ub_banks = 0;      // UB banks the transfer reads or writes
  double stalled_until = 0;   // a vector instruction of its core holds one of those banks until then
  uint64_t seq = 0;           // creation order
  bool live = true;           // false: the flow finished and its slot is free
  // Its entry in the pool's order: the key, and the stall its effective cap was taken in.
  CapKey key = 0;
  double cap_stall_until = 0;
  bool cap_stalled = false;
};
constexpr int kBackground = -1;

// What a transfer's start did in L2 (Bandwidth::last_lookup).
struct L2Lookup {
  bool looked_up = false;  // its GM side went through L2 (a GM transfer with bytes)
  bool write = false;      // it wrote GM
  L2Outcome outcome;
};

// A live write-back as the steady-state detector compares it.
struct BackgroundFlow {
  uint32_t ctx;
  double remaining, rate;
};

class Bandwidth {
 public:
  explicit Bandwidth(const Soc& soc);

  // Starts the transfer of record `r` (its flow `f` not yet routed, see route_through_l2) and
  // any write-back of dirty L2 lines it causes; returns the transfer's slot, which stays its
  // own until it finishes.
  uint32_t start(Flow f, const TraceRecord& r, double now);
  const Flow& flow(uint32_t i) const { return flows_[i]; }
  // A vector instruction of the flow's core holds one of its UB banks until `until`.
  void stall(uint32_t i, double until);

  // Recomputes the rates of the pools whose flows, caps or capacity changed since the last call.
  void assign_rates(double now);
  // The earliest of the blocks' next event (t_blocks), the end of a stall (also left in
  // stall_end) and the finish of a flow.
  double next_event(double now, double t_blocks, double& stall_end);
  // Moves every flow's bytes on to t (next_event's answer or earlier) and ends the flows that
  // finish by then. Returns their slots, lowest first; they keep their Flow until the next start.
  const std::vector<uint32_t>& advance(double now, double t);
  // Stalls that ended by t: those flows get their full cap back.
  void unstall(double t);

  // For the steady-state detector (sim/steady_state.h): a flow's bytes left and rate, the live
  // write-backs, the last start's L2 lookup, and the L2 itself, which it saves, replays the
  // lookups of skipped iterations on (lookup_l2, as start() makes them) and restores.
  double remaining(uint32_t i) const { return remaining_[i]; }
  double rate(uint32_t i) const { return rate_[i]; }
  void background_flows(std::vector<BackgroundFlow>& out) const;
  const L2Lookup& last_lookup() const { return last_lookup_; }
  // The record's GM side looked up in L2 (write: the transfer writes GM); none when it has no
  // GM side with bytes.
  std::optional<L2Outcome> lookup_l2(const TraceRecord& r, bool write);
  const L2Cache& l2() const { return l2_; }
  void set_l2(const L2Cache& l2) { l2_ = l2; }

 private:
  static constexpr int kPools = int(Resource::Count);
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  // Flows (slot, creation) whose cap may need retaking at their pool's next fair share. A flow
  // that finished since, or whose slot holds a later flow, is dropped from them.
  struct Tracked {
    uint32_t index;
    uint64_t seq;
  };
  // The first estimated finish (now + remaining / rate) of a pool's flows, as rates are set.
  struct PoolBounds {
    double first = kInf;
  };

  double route_through_l2(Flow& f, const TraceRecord& r);
  uint32_t add(Flow f, double now);
  double capacity_of(int pool) const;
  double effective_cap(const Flow& f, double now) const;
  void set_rate(uint32_t i, double rate, double now, PoolBounds& b);
  double order_pool(int r, double now);
  bool current(const Tracked& t) const;
  void recap(int r, uint32_t i, double now);
  void share_pool(int r, double now, PoolBounds& b);
  void remove_finished();

  const Soc& soc_;
  L2Cache l2_;
  L2Lookup last_lookup_;
  std::vector<Flow> flows_;
  // Per pool, its flows by (effective cap, creation): flows join and leave it as they start and
  // finish, and move when their pool's next fair share takes their new cap.
  std::array<PoolOrder, kPools> pools_;
  std::array<bool, kPools> pool_dirty_{};
  // Per pool, flows marked in recap_, or capped during a stall (the stall may have ended).
  std::array<std::vector<Tracked>, kPools> pool_recaps_, pool_stalled_;
  uint64_t next_seq_ = 0;
  int hbm_reads_ = 0, hbm_writes_ = 0;  // flows in the HBM pool reading, writing back
  // Per flow, at its index in flows_: bytes left, rate, and a lower bound of its finish. The
  // finish is now + remaining / rate; estimated when the rate changes, it moves by a few ulps
  // per event as remaining is decremented, far less than the estimates' slack, so only flows
  // whose bound comes before the next event need dividing out.
  std::vector<double> remaining_, rate_, finish_low_;
  std::vector<uint8_t> recap_;  // the flow's stall changed since its pool's last fair share
  // Per pool, as of its last fair share: the latest its first flow can finish, and the first
  // end of a stall of its flows (a stall that ends, or a new one, marks the pool).
  std::array<double, kPools> pool_finish_high_{kInf, kInf, kInf};
  std::array<double, kPools> pool_finish_low_{kInf, kInf, kInf};  // the earliest its first flow can finish
  std::array<double, kPools> pool_stall_end_{kInf, kInf, kInf};
  ShareChains chains_;
  std::vector<uint32_t> near_;       // flows that may finish at the next event
  std::vector<double> near_finish_;  // and their exact finish times
  std::vector<uint32_t> done_;       // the flows of near_ that finish at this event
  // Slots of flows_ whose flow finished, lowest first: live flows stay packed at the front, and
  // the loops over flows stop at slot_end_, one past the last live one.
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free_slots_;
  size_t slot_end_ = 0;
};

}  // namespace aoc::sim
