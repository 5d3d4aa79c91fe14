#include "sim/engine.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <queue>
#include <sstream>

#include "sim/block_queue.h"
#include "sim/cost_model.h"
#include "sim/fifo.h"
#include "sim/l2_cache.h"
#include "sim/pool_order.h"
#include "sim/sim_error.h"

namespace aoc::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kS = int(Pipe::S);
// The pipes that take queued records: not the scalar unit (it runs its records as it issues them)
// nor ALL (a barrier's name for every pipe). Their poll times stay at infinity.
constexpr int kFirstQueued = int(Pipe::V), kLastQueued = int(Pipe::FIX);
static_assert(kS == 0 && kFirstQueued == 1 && int(Pipe::ALL) == kLastQueued + 1 && int(Pipe::ALL) + 1 == kPipes);

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
  int flow = -1;  // index into Engine::flows_ while moving data
  uint64_t ub_banks = 0;  // V: the UB banks of the instruction in progress (cost_model.h)
};

// A transfer drawing on shared bandwidth. Its bytes left, rate and estimated finish, touched at
// every event, live in arrays of their own (Engine::remaining_ ...) at the same index.
struct Flow {
  uint32_t ctx;
  int pipe;  // kBackground: an L2 write-back that no pipe waits for
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

// Max-min fair share of one pool as a chain of equal splits: while the next flow's cap is not
// below its share, each of the m flows left takes share = left / m and leaves left - share. That
// chain depends only on (left, m), and the same few (usually the whole capacity and the number of
// flows not capped) recur at every change of a pool's flows, so its steps are kept: reusing them
// gives the very values the divisions and subtractions give.
class ShareChains {
 public:
  struct Chain {
    std::vector<double> left;   // left before step j
    std::vector<double> share;  // left[j] / (m - j)
    size_t m = 0;
  };
  // A direct-mapped table: a chain whose slot another (left, m) takes is simply computed again.
  // It starts small (most kernels have a few flows) and doubles while chains keep being lost.
  Chain& find(double left, size_t m) {
    const uint64_t bits = std::bit_cast<uint64_t>(left);
    Slot& s = slots_[((bits * 0x9e3779b97f4a7c15ull) >> 40 ^ m) & (slots_.size() - 1)];
    if (s.left_bits != bits || s.chain.m != m || s.chain.left.empty()) {
      if (++misses_ > 4 * slots_.size() && slots_.size() < kMaxSlots) {
        slots_ = std::vector<Slot>(2 * slots_.size());
        misses_ = 0;
        return find(left, m);
      }
      s.left_bits = bits;
      s.chain.m = m;
      s.chain.left.assign(1, left);
      s.chain.share.assign(1, left / double(m));
    }
    return s.chain;
  }
  // Makes step j of the chain available (j < m).
  static void extend(Chain& c, size_t j) {
    while (c.share.size() <= j) {
      const size_t k = c.share.size();
      const double left = c.left[k - 1] - c.share[k - 1];
      c.left.push_back(left);
      c.share.push_back(left / double(c.m - k));
    }
  }

 private:
  static constexpr size_t kMaxSlots = 4096;  // powers of two
  struct Slot {
    uint64_t left_bits = 0;
    Chain chain;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(64);
  size_t misses_ = 0;
};
constexpr int kPools = int(Resource::Count);
constexpr double kEstimateSlack = 1e-6;  // relative, and absolute in cycles
double estimate_low(double e) { return e * (1 - kEstimateSlack) - kEstimateSlack; }
double estimate_high(double e) { return e * (1 + kEstimateSlack) + kEstimateSlack; }
// rem[i] -= rate[i] * dt for every flow, kLanes at a time: each lane does the same IEEE
// multiplication and subtraction as the scalar expression. Inlined into the variants below, so
// it is compiled for the instructions each allows.
template <size_t kLanes>
struct LanesOf;  // GCC's vector types of two and four doubles
template <>
struct LanesOf<2> {
  using type = double __attribute__((vector_size(16)));
};
template <>
struct LanesOf<4> {
  using type = double __attribute__((vector_size(32)));
};
template <size_t kLanes>
[[gnu::always_inline]] inline void move_bytes_lanes(double* rem, const double* rate, size_t n, double dt) {
  using Lanes = typename LanesOf<kLanes>::type;
  Lanes d;
  for (size_t l = 0; l < kLanes; ++l) d[l] = dt;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Lanes r, q;
    std::memcpy(&r, rem + i, sizeof r);
    std::memcpy(&q, rate + i, sizeof q);
    r -= q * d;
    std::memcpy(rem + i, &r, sizeof r);
  }
  for (; i < n; ++i) rem[i] -= rate[i] * dt;
}
void move_bytes_sse(double* rem, const double* rate, size_t n, double dt) { move_bytes_lanes<2>(rem, rate, n, dt); }
#if defined(__x86_64__) || defined(__i386__)
// Four at a time where the CPU has AVX. Only AVX is enabled, not FMA, so the product is still
// rounded before it is subtracted, as in the scalar expression.
__attribute__((target("avx"))) void move_bytes_avx(double* rem, const double* rate, size_t n, double dt) {
  move_bytes_lanes<4>(rem, rate, n, dt);
}
// Asked before main, so the CPU model is read first (its own initializer may not have run yet).
const bool kHasAvx = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") != 0;
}();
void move_bytes(double* rem, const double* rate, size_t n, double dt) {
  if (kHasAvx) move_bytes_avx(rem, rate, n, dt);
  else move_bytes_sse(rem, rate, n, dt);
}
#else
void move_bytes(double* rem, const double* rate, size_t n, double dt) { move_bytes_sse(rem, rate, n, dt); }
#endif

// advance_flows' tolerance: a flow finishing this close after the event time finishes with it.
double finish_limit(double t) { return t + 1e-9 * std::max(1.0, t); }

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
  CoreType type = CoreType::AIV;
  uint32_t phys = 0;
  int wave = 0;
  int successor = -1;  // next block on the same physical core
  bool active = false, finished = false;
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

uint32_t flag_key(Pipe src, Pipe dst, uint8_t id) { return (uint32_t(src) << 16) | (uint32_t(dst) << 8) | id; }

const char* pipe_label(Pipe p) {
  static const char* names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
  return int(p) < 8 ? names[int(p)] : "?";
}

class Engine {
 public:
  Engine(const Soc& soc, const std::vector<BlockTrace>& blocks, const EngineOptions& opt)
      : soc_(soc), opt_(opt), l2_(soc.l2_bytes, soc.l2_line_bytes), lookups_(soc) {
    build_contexts(blocks);
    events_ = BlockQueue(ctxs_.size());
  }

  SimResult run() {
    double now = 0;
    size_t unfinished = ctxs_.size();
    // The scheduler starts the blocks of the first wave one after another, in block order.
    const double stagger = soc_.us_to_cycles(soc_.launch_block_dispatch_us);
    int dispatched = 0;
    for (auto& c : ctxs_)
      if (c.wave == 0) activate(c, stagger * dispatched++);
    while (unfinished > 0) {
      // Blocks due at `now`, in block order: the order of their L2 accesses, new flows and spans.
      ++pass_;
      collect_due(now);
      for (size_t k = 0; k < due_.size(); ++k) {
        Ctx& c = ctxs_[due_[k]];
        progress(c, now);
        schedule(c);
        if (c.finished) {
          --unfinished;
          if (c.successor >= 0) {
            Ctx& next = ctxs_[c.successor];  // a later block: it joins this pass if it starts now
            activate(next, c.res.end + soc_.us_to_cycles(soc_.launch_per_wave_us));
            if (next.next_time <= now) mark_due(next, k + 1);
          }
        }
      }
      release_sync_if_complete();
      if (unfinished == 0) break;
      assign_rates(now);
      double stall_end = kInf;
      double t_next = next_flow_event(now, earliest_block_event(), stall_end);
      if (!(t_next < kInf)) throw SimError(deadlock_report(now));
      if (t_next < now) t_next = now;
      advance_flows(now, t_next);
      if (stall_end <= t_next) unstall(t_next);
      now = t_next;
    }
    return finish();
  }

 private:
  const Soc& soc_;
  const EngineOptions& opt_;
  std::vector<Ctx> ctxs_;
  std::vector<Flow> flows_;
  // Per pool, its flows by (effective cap, creation): flows join and leave it as they start and
  // finish, and move when their pool's next fair share takes their new cap.
  std::array<PoolOrder, kPools> pools_;
  std::array<bool, kPools> pool_dirty_{};
  // Per pool, flows (slot, creation) whose cap may need retaking at its next fair share: marked
  // in recap_, or capped during a stall (the stall may have ended). A flow that finished since,
  // or whose slot holds a later flow, is dropped from them.
  struct Tracked {
    uint32_t index;
    uint64_t seq;
  };
  std::array<std::vector<Tracked>, kPools> pool_recaps_, pool_stalled_;
  uint64_t next_seq_ = 0;
  int hbm_reads_ = 0, hbm_writes_ = 0;  // flows in the HBM pool reading, writing back
  // Per flow, at its index in flows_: bytes left, rate, and a lower bound of its finish. The
  // finish is now + remaining / rate; estimated when the rate changes, it moves by a few ulps
  // per event as remaining is decremented, far less than kEstimateSlack, so only flows whose
  // bound comes before the next event need dividing out.
  std::vector<double> remaining_, rate_, finish_low_;
  std::vector<uint8_t> recap_;  // the flow's stall changed since its pool's last fair share
  // Per pool, as of its last fair share: the latest its first flow can finish, and the first
  // end of a stall of its flows (a stall that ends, or a new one, marks the pool).
  std::array<double, kPools> pool_finish_high_{kInf, kInf, kInf};
  std::array<double, kPools> pool_finish_low_{kInf, kInf, kInf};  // the earliest its first flow can finish
  std::array<double, kPools> pool_stall_end_{kInf, kInf, kInf};
  ShareChains chains_;
  std::vector<uint32_t> near_;                       // flows that may finish at the next event
  std::vector<double> near_finish_;                  // and their exact finish times
  std::vector<uint32_t> done_;                       // the flows of near_ that finish at this event
  // Slots of flows_ whose flow finished, lowest first: live flows stay packed at the front, and
  // the loops over flows stop at slot_end_, one past the last live one.
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free_slots_;
  size_t slot_end_ = 0;
  L2Cache l2_;
  CostLookups lookups_;
  BlockQueue events_{0};  // active, unfinished blocks with a next event, by (next_time, block)
  std::vector<uint32_t> due_;  // blocks to progress in this pass, in block order
  uint64_t pass_ = 0;
  bool uses_sync_all_ = false;
  SimResult out_;

  void build_contexts(const std::vector<BlockTrace>& blocks) {
    ctxs_.resize(blocks.size());
    int counts[2] = {0, 0};
    std::vector<int> last_on_slot[2];
    last_on_slot[0].assign(std::max(soc_.aiv_cores, 1), -1);
    last_on_slot[1].assign(std::max(soc_.aic_cores, 1), -1);
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (!blocks[i].trace) throw SimError("block " + std::to_string(i) + " has no trace");
      Ctx& c = ctxs_[i];
      c.block = uint32_t(i);
      c.trace = blocks[i].trace;
      c.type = blocks[i].type;
      int t = int(c.type);
      int ncores = int(last_on_slot[t].size());
      int idx = counts[t]++;
      c.phys = uint32_t(idx % ncores);
      c.wave = idx / ncores;
      if (last_on_slot[t][c.phys] >= 0) ctxs_[last_on_slot[t][c.phys]].successor = int(i);
      last_on_slot[t][c.phys] = int(i);
      c.res.block = c.block;
      c.res.physical_core = c.phys;
      c.res.type = c.type;
      decode(c);
      out_.waves = std::max(out_.waves, c.wave + 1);
    }
    if (uses_sync_all_ && out_.waves > 1)
      throw SimError("SyncAll needs every block resident at once, but " + std::to_string(blocks.size()) +
                     " blocks exceed the cores of " + soc_.name + " (" + std::to_string(soc_.aiv_cores) + " AIV, " +
                     std::to_string(soc_.aic_cores) + " AIC)");
  }

  // Keeps the block's place in events_ in step with its next_time.
  void schedule(const Ctx& c) {
    if (c.active && !c.finished && c.next_time < kInf) events_.set(c.block, c.next_time);
    else events_.remove(c.block);
  }

  // Adds a block to due_ in block order, among the entries from `from` on.
  void mark_due(Ctx& c, size_t from) {
    if (c.visited_pass == pass_) return;
    c.visited_pass = pass_;
    due_.insert(std::upper_bound(due_.begin() + std::ptrdiff_t(from), due_.end(), c.block), c.block);
  }

  // Moves every block whose next event is at or before `now` into due_, in block order. They
  // leave the queue by (time, block): all at `now`, so in block order, unless some came due
  // earlier (a block started late), which a sort puts right.
  void collect_due(double now) {
    due_.clear();
    bool sorted = true;
    while (!events_.empty() && events_.top_time() <= now) {
      Ctx& c = ctxs_[events_.top()];
      events_.pop();
      if (c.visited_pass == pass_) continue;
      c.visited_pass = pass_;
      if (!due_.empty() && c.block < due_.back()) sorted = false;
      due_.push_back(c.block);
    }
    if (!sorted) std::sort(due_.begin(), due_.end());
  }

  double earliest_block_event() {
    return events_.empty() ? kInf : events_.top_time();
  }

  // Fills c.ops, numbering the flag queues the block uses in order of first use.
  void decode(Ctx& c) {
    const auto& recs = c.trace->records;
    c.nrec = recs.size();
    c.poll.fill(kInf);
    c.ops.reserve(recs.size());
    std::vector<uint32_t> keys;  // flag_key of each queue
    for (const auto& r : recs) {
      Op op{r.kind, r.pipe, r.peer, r.event_id, 0};
      if (r.kind == RecKind::SetFlag || r.kind == RecKind::WaitFlag) {
        const uint32_t key = flag_key(r.pipe, r.peer, r.event_id);
        const size_t q = size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
        if (q == keys.size()) keys.push_back(key);
        op.flag = uint16_t(q);  // at most 9 * 9 * 256 keys
      }
      if (r.kind == RecKind::SyncAll) uses_sync_all_ = true;
      c.ops.push_back(op);
    }
    c.flags.resize(keys.size());
  }

  void activate(Ctx& c, double t) {
    c.active = true;
    // Before the kernel's first instruction the scalar unit runs the block's start work
    // (entry, tiling data loaded from GM, first instruction-fetch and TLB misses).
    const double start_work = soc_.launch_block_start_cycles;
    c.s_free = t + start_work;
    c.res.busy[kS] += start_work;
    c.res.start = t;
    c.next_time = t;
    for (auto& p : c.pipes) p.last_done = t;
    schedule(c);
  }

  int add_span(Ctx& c, Pipe p, uint32_t rec, double start, double end, double done) {
    if (!opt_.record_spans) return -1;
    out_.spans.push_back(Span{c.block, p, rec, start, end, done});
    return int(out_.spans.size() - 1);
  }

  // ---- issue (scalar unit) ----
  // Blocks issue in lockstep through traces of hundreds of MB, so a record is seldom in cache
  // when its cost is needed; fetching it a few records ahead hides most of that.
  static constexpr uint32_t kPrefetchAhead = 4;
  static void prefetch_costed(const Ctx& c, size_t i) {
    if (i >= c.ops.size()) return;
    const RecKind k = c.ops[i].kind;
    if (k != RecKind::Compute && k != RecKind::Copy && k != RecKind::Scalar) return;  // flags need only c.ops
    const char* p = reinterpret_cast<const char*>(&c.trace->records[i]);
    for (size_t off = 0; off < sizeof(TraceRecord); off += 64) __builtin_prefetch(p + off);
  }

  bool drained(const Ctx& c) const {
    for (int p = 0; p < kPipes; ++p)
      if (p != kS && (!c.pipes[p].queue.empty() || c.pipes[p].mode != PipeMode::Idle)) return false;
    return true;
  }
  double all_done(const Ctx& c) const {
    double t = c.s_free;
    for (const auto& p : c.pipes) t = std::max(t, p.last_done);
    return t;
  }

  bool step_issue(Ctx& c, double now) {
    const auto& recs = c.trace->records;
    if (c.next >= recs.size() || c.s_free > now || c.sync_arrived) return false;
    const uint32_t idx = uint32_t(c.next);
    const Op& r = c.ops[idx];
    prefetch_costed(c, idx + kPrefetchAhead);
    auto occupy_s = [&](double start, double cycles) {
      c.s_free = start + cycles;
      c.res.busy[kS] += cycles;
      if (cycles > 0) add_span(c, Pipe::S, idx, start, start + cycles, start + cycles);
    };
    switch (r.kind) {
      case RecKind::Scalar:
        occupy_s(now, cost_of(soc_, recs[idx], lookups_).cycles);
        break;
      case RecKind::SetFlag:
        if (r.pipe != Pipe::S) return issue_to_pipe(c, r.pipe, idx, now);
        // The scalar unit is in order: everything it did before is complete.
        c.flags[r.flag].push_back({now + soc_.set_flag_cycles, idx});
        c.s_free = now + soc_.set_flag_cycles;
        break;
      case RecKind::WaitFlag: {
        if (r.peer != Pipe::S) return issue_to_pipe(c, r.peer, idx, now);
        auto& q = c.flags[r.flag];  // (r.pipe, S, event)
        if (q.empty()) return false;
        FlagEntry e = q.front();
        q.pop_front();
        double t = std::max(now, e.time);
        c.s_free = t + soc_.wait_flag_cycles;
        add_arrow(c, r.pipe, Pipe::S, e, idx, t);
        break;
      }
      case RecKind::Barrier:
        if (r.pipe == Pipe::ALL) {
          if (!drained(c)) return false;
          c.s_free = std::max(now, all_done(c)) + soc_.barrier_cycles;
        } else if (r.pipe == Pipe::S) {
          c.s_free = now + soc_.barrier_cycles;
        } else {
          return issue_to_pipe(c, r.pipe, idx, now);
        }
        break;
      case RecKind::SyncAll:
        if (!drained(c)) return false;
        c.sync_arrived = true;
        c.sync_time = std::max(now, all_done(c));
        return true;  // `next` advances on release
      case RecKind::Compute:
      case RecKind::Copy:
        if (r.pipe == Pipe::S) {  // scalar-unit copies/compute run on S itself
          occupy_s(now, cost_of(soc_, recs[idx], lookups_).cycles);
          break;
        }
        return issue_to_pipe(c, r.pipe, idx, now);
    }
    ++c.next;
    ++c.res.instructions;
    return true;
  }

  bool issue_to_pipe(Ctx& c, Pipe p, uint32_t idx, double now) {
    if (p == Pipe::ALL || int(p) >= kPipes) throw SimError("record " + std::to_string(idx) + " names an invalid pipe");
    PipeState& ps = c.pipes[int(p)];
    if (ps.queue.size() >= soc_.queue_depth) return false;  // queue full: issue stalls
    ps.queue.push_back(idx);
    if (ps.mode == PipeMode::Idle) c.poll[int(p)] = -kInf;
    c.s_free = now + soc_.issue_cycles;
    c.res.busy[kS] += soc_.issue_cycles;
    ++c.next;
    ++c.res.instructions;
    return true;
  }

  // ---- pipes ----
  bool step_pipe(Ctx& c, int p, double now) {
    PipeState& ps = c.pipes[p];
    if (ps.mode == PipeMode::Fixed && ps.until <= now) ps.mode = PipeMode::Idle;
    if (ps.mode == PipeMode::FlowPending && ps.until <= now) {
      Flow f{uint32_t(&c - ctxs_.data()), p, ps.pending_bytes, ps.pending_cap, ps.pending_res};
      f.ub_banks = ub_banks_touched(soc_, c.trace->records[ps.pending_rec]);
      const PipeState& v = c.pipes[int(Pipe::V)];
      if (v.mode == PipeMode::Fixed && v.until > now && (v.ub_banks & f.ub_banks) != 0) f.stalled_until = v.until;
      double writeback = 0;
      if (ps.pending_res != Resource::None) writeback = route_through_l2(f, c.trace->records[ps.pending_rec]);
      ps.flow = int(add_flow(f, now));
      if (writeback > 0) add_flow(Flow{f.ctx, kBackground, writeback, kInf, Resource::Hbm, true}, now);
      ps.mode = PipeMode::Flowing;
      return true;
    }
    if (ps.mode != PipeMode::Idle || ps.queue.empty()) return false;
    const uint32_t idx = ps.queue.front();
    const Op& r = c.ops[idx];
    const Pipe pipe = Pipe(p);
    switch (r.kind) {
      case RecKind::Compute:
      case RecKind::Copy:
      case RecKind::Scalar: {
        const TraceRecord& rec = c.trace->records[idx];
        InstrCost cost = cost_of(soc_, rec, lookups_);
        ps.cur_start = now;
        ps.cur_latency = cost.latency;
        if (cost.bytes > 0) {
          ps.mode = PipeMode::FlowPending;
          ps.until = now + cost.cycles;
          ps.pending_bytes = cost.bytes;
          ps.pending_cap = cost.core_bytes_per_cycle;
          ps.pending_res = cost.resource;
          ps.pending_rec = idx;
          ps.span = add_span(c, pipe, idx, now, now, now);
        } else {
          ps.mode = PipeMode::Fixed;
          ps.until = now + cost.cycles;
          ps.last_done = std::max(ps.last_done, ps.until + cost.latency);
          if (pipe == Pipe::V) stall_transfers(c, ps, rec);
          c.res.busy[p] += cost.cycles;
          add_span(c, pipe, idx, now, ps.until, ps.until + cost.latency);
        }
        break;
      }
      case RecKind::SetFlag: {
        // Fires once every earlier instruction of this pipe has completed; later ones may proceed.
        double t = std::max(now, ps.last_done) + soc_.set_flag_cycles;
        c.flags[r.flag].push_back({t, idx});  // (this pipe, peer, event)
        ps.mode = PipeMode::Fixed;
        ps.until = now + soc_.set_flag_cycles;
        break;
      }
      case RecKind::WaitFlag: {
        auto& q = c.flags[r.flag];  // (r.pipe, this pipe, event)
        if (q.empty()) return false;  // blocks this pipe (and everything queued behind it)
        FlagEntry e = q.front();
        q.pop_front();
        double t = std::max(now, e.time);
        ps.mode = PipeMode::Fixed;
        ps.until = t + soc_.wait_flag_cycles;
        ps.last_done = std::max(ps.last_done, ps.until);
        add_arrow(c, r.pipe, pipe, e, idx, t);
        break;
      }
      case RecKind::Barrier: {
        double t = std::max(now, ps.last_done) + soc_.barrier_cycles;
        ps.mode = PipeMode::Fixed;
        ps.until = t;
        ps.last_done = t;
        break;
      }
      case RecKind::SyncAll:
        throw SimError("SyncAll cannot be queued on a pipe");
    }
    ps.queue.pop_front();
    // The next record of this pipe runs after this one; it was issued long ago and has likely
    // left the cache since.
    if (!ps.queue.empty()) prefetch_costed(c, ps.queue.front());
    return true;
  }

  // Puts the flow in a free slot of flows_ (slots never move, so indices held by pipes and pools
  // stay valid) and returns the slot.
  uint32_t add_flow(Flow f, double now) {
    const int r = int(f.res);
    f.seq = next_seq_++;
    uint32_t i;
    if (free_slots_.empty()) {
      i = uint32_t(flows_.size());
      flows_.push_back(f);
      remaining_.push_back(f.bytes);
      rate_.push_back(0);
      finish_low_.push_back(kInf);
      recap_.push_back(0);
    } else {
      i = free_slots_.top();
      free_slots_.pop();
      flows_[i] = f;
      remaining_[i] = f.bytes;
      rate_[i] = 0;
      finish_low_[i] = kInf;
      recap_[i] = 0;
    }
    slot_end_ = std::max<size_t>(slot_end_, i + 1);
    Flow& g = flows_[i];
    const double cap = effective_cap(g, now);
    g.key = cap_key(cap, g.seq);
    g.cap_stall_until = g.stalled_until;
    g.cap_stalled = g.stalled_until > now;
    if (g.cap_stalled) pool_stalled_[r].push_back({i, g.seq});
    pools_[r].insert(CapEntry{g.key, cap, i});
    pool_dirty_[r] = true;
    if (f.res == Resource::Hbm) ++(f.hbm_write ? hbm_writes_ : hbm_reads_);
    return i;
  }

  void add_arrow(Ctx& c, Pipe src, Pipe dst, const FlagEntry& e, uint32_t wait_rec, double t) {
    if (!opt_.record_spans) return;
    out_.arrows.push_back(FlagArrow{c.block, src, dst, e.rec, wait_rec, e.time, t});
  }

  // From when step_pipe may act on the pipe (it certainly does nothing before): at once when it
  // is idle with work queued, at `until` when it is busy for a fixed time (it must still turn
  // Idle then) or waiting to start moving data, never while it moves data or has nothing queued.
  static double poll_time(const PipeState& ps) {
    switch (ps.mode) {
      case PipeMode::Idle: return ps.queue.empty() ? kInf : -kInf;
      case PipeMode::Fixed:
      case PipeMode::FlowPending: return ps.until;
      case PipeMode::Flowing: return kInf;
    }
    return -kInf;
  }

  void progress(Ctx& c, double now) {
    bool changed = true;
    while (changed) {
      changed = false;
      for (int p = kFirstQueued; p <= kLastQueued; ++p) {
        if (!(c.poll[p] <= now)) continue;
        if (step_pipe(c, p, now)) changed = true;
        c.poll[p] = poll_time(c.pipes[p]);
      }
      if (step_issue(c, now)) changed = true;
    }
    if (c.next >= c.nrec && !c.sync_arrived && drained(c)) {
      c.finished = true;
      // After its pipes drain the block cleans its data cache and signals its end.
      c.res.end = all_done(c) + soc_.launch_block_end_cycles;
      c.res.busy[kS] += soc_.launch_block_end_cycles;
      c.next_time = kInf;
      return;
    }
    c.next_time = next_event(c, now);
  }

  double next_event(const Ctx& c, double now) const {
    double t = kInf;
    if (c.next < c.nrec && !c.sync_arrived && c.s_free > now) t = c.s_free;
    // The pipes busy until a later time: poll times after now (the others are -inf or inf).
    for (int p = kFirstQueued; p <= kLastQueued; ++p)
      if (c.poll[p] > now) t = std::min(t, c.poll[p]);
    return t;
  }

  // ---- shared bandwidth ----
  // Looks the GM side of a transfer up in L2 when its bytes start to move (so the order of
  // accesses across cores is the simulated order) and picks the pool it draws from: HBM when
  // anything misses, with the bytes served by L2 converted to HBM time at the ratio of the two
  // bandwidths; L2 otherwise. Returns the bytes of dirty lines the access evicts: the L2 writes
  // them back to HBM in the background (a flow no pipe waits for), so they take HBM bandwidth
  // from everyone, but the copy that evicted them does not wait for them. That is why a single
  // buffered kernel writes back during its compute and copy-out phases, almost for free, while
  // a kernel that keeps HBM reading all the time (double buffering) pays for every byte.
  double route_through_l2(Flow& f, const TraceRecord& r) {
    const bool write = f.res == Resource::L2;
    const Range* gm = nullptr;
    if (write && r.has_write && r.write.space == Space::GM) gm = &r.write;
    if (!write && r.nreads > 0 && r.reads[0].space == Space::GM) gm = &r.reads[0];
    if (!gm || r.bytes == 0) return 0;
    const uint32_t n = std::max<uint32_t>(r.bursts, 1);
    const uint64_t len = r.burst_bytes ? r.burst_bytes : r.bytes / n;
    const uint64_t pitch = len + (write ? r.dst_gap : r.src_gap);
    const bool allocate = r.cache_mode != kCacheModeDisable;
    L2Outcome o;
    for (uint32_t i = 0; i < n; ++i) l2_.access(gm->lo + uint64_t(i) * pitch, len, write, allocate, o);
    if (o.miss_bytes == 0) {
      f.res = Resource::L2;
      return double(o.writeback_bytes);
    }
    // f.bytes holds the effective (penalised) bytes of the requested ones; scale each part alike.
    const double scale = f.bytes / double(r.bytes);
    const double l2_in_hbm_time = soc_.hbm_read_bytes_per_cycle / soc_.l2_write_bytes_per_cycle;
    f.res = Resource::Hbm;
    f.bytes = scale * (double(o.miss_bytes) + double(o.hit_bytes) * l2_in_hbm_time);
    return double(o.writeback_bytes);
  }

  // UB ports arbitrate per bank: while the vector instruction `v` runs, the core's transfers into
  // or out of the banks it uses lose soc.dma_vector_bank_stall of their rate.
  void stall_transfers(const Ctx& c, PipeState& v, const TraceRecord& r) {
    v.ub_banks = 0;
    if (soc_.dma_vector_bank_stall <= 0) return;
    v.ub_banks = ub_banks_touched(soc_, r);
    for (const PipeState& ps : c.pipes) {  // the core's transfers: one per pipe that moves data
      if (ps.mode != PipeMode::Flowing) continue;
      Flow& f = flows_[ps.flow];
      if ((f.ub_banks & v.ub_banks) == 0) continue;
      f.stalled_until = std::max(f.stalled_until, v.until);
      if (!recap_[ps.flow]) pool_recaps_[int(f.res)].push_back({uint32_t(ps.flow), f.seq});
      recap_[ps.flow] = 1;
      pool_dirty_[int(f.res)] = true;
    }
  }

  double capacity_of(int pool) const {
    if (pool == int(Resource::None)) return kInf;
    if (pool == int(Resource::L2)) return soc_.l2_write_bytes_per_cycle;
    // HBM loses capacity to read/write turnarounds while it both reads and writes back.
    const double mix = (hbm_reads_ > 0 && hbm_writes_ > 0) ? soc_.rw_mix_efficiency : 1.0;
    return soc_.hbm_read_bytes_per_cycle * mix;
  }

  double effective_cap(const Flow& f, double now) const {
    return f.stalled_until > now ? f.cap * (1.0 - soc_.dma_vector_bank_stall) : f.cap;
  }

  // Recomputes the rates of the pools whose flows, caps or capacity changed since the last call.
  void assign_rates(double now) {
    for (int r = 0; r < kPools; ++r) {
      if (!pool_dirty_[r]) continue;
      pool_dirty_[r] = false;
      pool_stall_end_[r] = order_pool(r, now);
      PoolBounds b;
      share_pool(r, now, b);
      // The bounds are monotonic in the estimate (rounding keeps the order), so the bound of the
      // first estimate is the first of the flows' bounds.
      pool_finish_low_[r] = estimate_low(b.first);
      pool_finish_high_[r] = estimate_high(b.first);
    }
  }

  // The first estimated finish (now + remaining / rate) of a pool's flows, as rates are set.
  struct PoolBounds {
    double first = kInf;
  };

  // Gives flow i its rate and its finish bound (now + remaining / rate, see finish_low_).
  void set_rate(uint32_t i, double rate, double now, PoolBounds& b) {
    rate_[i] = rate;
    const double finish = rate > 0 ? now + remaining_[i] / rate : kInf;
    finish_low_[i] = estimate_low(finish);
    b.first = std::min(b.first, finish);
  }

  // Brings a pool's order up to date: flows whose stall changed or ended take their new cap and
  // move to its place (flows joined and left it as they started and finished). Returns the
  // first end of a stall of its flows.
  double order_pool(int r, double now) {
    for (const Tracked& t : pool_recaps_[r])
      if (recap_[t.index] && current(t)) recap(r, t.index, now);
    pool_recaps_[r].clear();
    // Every flow of the list is stalled now (a recap that ended a stall is dropped here), so
    // the list holds each stalled flow once.
    auto& stalled = pool_stalled_[r];
    double stall_end = kInf;
    size_t kept = 0;
    for (size_t k = 0; k < stalled.size(); ++k) {  // recap() appends only flows not stalled before
      const Tracked t = stalled[k];
      if (!current(t)) continue;
      const Flow& f = flows_[t.index];
      if (f.cap_stalled && f.cap_stall_until <= now) recap(r, t.index, now);
      if (!f.cap_stalled) continue;
      stall_end = std::min(stall_end, f.cap_stall_until);
      stalled[kept++] = t;
    }
    stalled.resize(kept);
    return stall_end;
  }

  bool current(const Tracked& t) const {
    const Flow& f = flows_[t.index];
    return f.live && f.seq == t.seq;
  }

  // A new cap for a flow whose stall changed or ended, and its new place in the pool.
  void recap(int r, uint32_t i, double now) {
    recap_[i] = 0;
    Flow& f = flows_[i];
    const double cap = effective_cap(f, now);
    const CapKey old = f.key;
    f.key = cap_key(cap, f.seq);
    const bool was_stalled = f.cap_stalled;
    f.cap_stall_until = f.stalled_until;
    f.cap_stalled = f.stalled_until > now;
    if (f.cap_stalled && !was_stalled) pool_stalled_[r].push_back({i, f.seq});
    pools_[r].rekey(old, CapEntry{f.key, cap, i});
  }

  // Max-min fair share over the ordered entries: flows capped below the equal share keep their
  // cap, the rest split what is left.
  void share_pool(int r, double now, PoolBounds& b) {
    const auto& entries = pools_[r].entries();
    // Step k: share = left / (n - k); rate = min(cap, share); left -= rate.
    double left = capacity_of(r);
    const size_t n = entries.size();
    size_t k = 0;
    while (k < n) {
      // A flow capped below its share (stalled ones, often several in a row) keeps its cap.
      const CapEntry& first = entries[k];
      if (!(left / double(n - k) < first.cap)) {  // std::min(cap, share) is cap unless share < cap
        set_rate(first.index, first.cap, now, b);
        left -= first.cap;
        ++k;
        continue;
      }
      // From here equal splits, until a cap is below its share again.
      // Its steps for every entry left, at once: they are the same values whether or not a cap
      // cuts the chain short, and a chain that recurs has them all already.
      ShareChains::Chain& chain = chains_.find(left, n - k);
      ShareChains::extend(chain, n - k - 1);
      const double* shares = chain.share.data();
      for (size_t j = 0;; ++j, ++k) {
        if (k == n) return;
        const double share = shares[j];
        const CapEntry& e = entries[k];
        if (share < e.cap) {
          set_rate(e.index, share, now, b);
          continue;
        }
        set_rate(e.index, e.cap, now, b);
        left = chain.left[j] - e.cap;
        ++k;
        break;
      }
    }
  }

  // The earliest of the blocks' next event, the end of a stall and the finish of a flow (exactly
  // now + remaining / rate). Only flows whose estimate can come first are divided out; they are
  // kept in near_ for advance_flows.
  double next_flow_event(double now, double t_blocks, double& stall_end) {
    double bound = t_blocks;
    for (int r = 0; r < kPools; ++r) {
      bound = std::min(bound, pool_finish_high_[r]);
      stall_end = std::min(stall_end, pool_stall_end_[r]);
    }
    bound = std::min(bound, stall_end);
    const double reach = finish_limit(bound);
    near_.clear();
    near_finish_.clear();
    double t_next = kInf;
    for (int r = 0; r < kPools; ++r) {
      if (!(pool_finish_low_[r] <= reach)) continue;  // none of its flows can finish by then
      for (const CapEntry& e : pools_[r].entries()) {
        const uint32_t i = e.index;
        if (!(finish_low_[i] <= reach)) continue;
        const double finish = now + remaining_[i] / rate_[i];
        near_.push_back(i);
        near_finish_.push_back(finish);
        if (rate_[i] > 0) t_next = std::min(t_next, finish);
      }
    }
    return std::min({t_next, t_blocks, stall_end});
  }

  void advance_flows(double now, double t) {
    const double dt = t - now;
    const double limit = finish_limit(t);
    move_bytes(remaining_.data(), rate_.data(), slot_end_, dt);
    double* rem = remaining_.data();
    // Flows that finish by t end at t (no subtraction for them).
    done_.clear();
    for (size_t k = 0; k < near_.size(); ++k)
      if (near_finish_[k] <= limit) {
        rem[near_[k]] = 0;
        done_.push_back(near_[k]);
      }
    if (!done_.empty()) remove_finished(t);
  }

  // Ends the flows in done_ (set to 0 bytes: those of near_ finishing by t) and frees their
  // slots and places in their pools. No other flow runs out of bytes: one that would finish
  // later than finish_limit(t) keeps more than rate * 1e-9 * t bytes, far above the rounding of
  // the subtractions, and every flow that can finish by then is in near_. Slot order, as a scan
  // of the slots took them.
  void remove_finished(double t) {
    std::sort(done_.begin(), done_.end());
    for (const uint32_t i : done_) {
      Flow& f = flows_[i];
      f.live = false;
      remaining_[i] = 0;
      rate_[i] = 0;  // a free slot keeps 0 bytes: moving bytes leaves it so
      finish_low_[i] = kInf;
      recap_[i] = 0;
      free_slots_.push(uint32_t(i));
      pools_[int(f.res)].erase(f.key);
      pool_dirty_[int(f.res)] = true;
      if (f.res == Resource::Hbm) --(f.hbm_write ? hbm_writes_ : hbm_reads_);
      if (f.pipe == kBackground) continue;
      Ctx& c = ctxs_[f.ctx];
      PipeState& ps = c.pipes[f.pipe];
      ps.mode = PipeMode::Idle;
      ps.flow = -1;
      c.poll[f.pipe] = poll_time(ps);
      ps.last_done = std::max(ps.last_done, t + ps.cur_latency);
      c.res.busy[f.pipe] += t - ps.cur_start;
      if (ps.span >= 0) {
        out_.spans[ps.span].end = t;
        out_.spans[ps.span].done = t + ps.cur_latency;
        ps.span = -1;
      }
      if (t < c.next_time) {
        c.next_time = t;
        schedule(c);
      }
    }
    while (slot_end_ > 0 && !flows_[slot_end_ - 1].live) --slot_end_;
  }

  // Stalls that ended by t: those flows get their full cap back.
  void unstall(double t) {
    for (int r = 0; r < kPools; ++r)
      if (pool_stall_end_[r] <= t) pool_dirty_[r] = true;
  }

  // ---- SyncAll ----
  void release_sync_if_complete() {
    if (!uses_sync_all_) return;
    double t = 0;
    for (const auto& c : ctxs_) {
      if (!c.sync_arrived) return;
      t = std::max(t, c.sync_time);
    }
    t += soc_.sync_all_cycles;
    for (auto& c : ctxs_) {
      c.sync_arrived = false;
      c.s_free = t;
      ++c.next;
      ++c.res.instructions;
      c.next_time = t;
      schedule(c);
    }
  }

  std::string deadlock_report(double now) const {
    std::ostringstream os;
    os << "deadlock at cycle " << now << ": no instruction can make progress.";
    for (const auto& c : ctxs_) {
      if (!c.active || c.finished) continue;
      const auto& recs = c.trace->records;
      os << "\n  block " << c.block << ":";
      if (c.sync_arrived) os << " waiting in SyncAll (other blocks never reach it);";
      else if (c.next < recs.size()) {
        const auto& r = recs[c.next];
        os << " issue stalled at record " << c.next << " " << r.op << " (" << r.file << ":" << r.line << ");";
      }
      for (int p = 0; p < kPipes; ++p) {
        const auto& ps = c.pipes[p];
        if (ps.queue.empty()) continue;
        const auto& r = recs[ps.queue.front()];
        os << " pipe " << pipe_label(Pipe(p)) << " blocked at " << r.op << " (" << r.file << ":" << r.line << ")";
        if (r.kind == RecKind::WaitFlag)
          os << " waiting for SetFlag " << pipe_label(r.pipe) << "->" << pipe_label(r.peer) << " event " << int(r.event_id)
             << " that is never set";
        os << ";";
      }
    }
    return os.str();
  }

  SimResult finish() {
    for (auto& c : ctxs_) {
      out_.cycles = std::max(out_.cycles, c.res.end);
      out_.blocks.push_back(c.res);
    }
    // Block starts (staggered dispatch, start work) and ends are inside `cycles`; what remains
    // is the scheduler's time before the first block and after the last.
    out_.launch_us = soc_.launch_dispatch_us + soc_.launch_end_response_us;
    out_.task_duration_us = out_.launch_us + soc_.cycles_to_us(out_.cycles);
    return std::move(out_);
  }
};

}  // namespace

SimResult simulate(const Soc& soc, const std::vector<BlockTrace>& blocks, const EngineOptions& opt) {
  if (blocks.empty()) throw SimError("simulate: no blocks to run");
  Engine e(soc, blocks, opt);
  return e.run();
}

}  // namespace aoc::sim
