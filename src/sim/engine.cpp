#include "sim/engine.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include "sim/bandwidth.h"
#include "sim/block_queue.h"
#include "sim/cost_model.h"
#include "sim/engine_state.h"
#include "sim/record_signature.h"
#include "sim/sim_error.h"
#include "sim/steady_state.h"

namespace aoc::sim {
namespace {

using namespace detail;

constexpr int kS = int(Pipe::S);
// The pipes that take queued records: not the scalar unit (it runs its records as it issues them)
// nor ALL (a barrier's name for every pipe). Their poll times stay at infinity.
constexpr int kFirstQueued = int(Pipe::V), kLastQueued = int(Pipe::FIX);
static_assert(kS == 0 && kFirstQueued == 1 && int(Pipe::ALL) == kLastQueued + 1 && int(Pipe::ALL) + 1 == kPipes);

uint32_t flag_key(Pipe src, Pipe dst, uint8_t id) { return (uint32_t(src) << 16) | (uint32_t(dst) << 8) | id; }

const char* pipe_label(Pipe p) {
  static const char* names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
  return int(p) < 8 ? names[int(p)] : "?";
}

class Engine {
 public:
  Engine(const Soc& soc, const std::vector<BlockTrace>& blocks, const EngineOptions& opt)
      : soc_(soc), opt_(opt), bw_(soc), lookups_(soc), steady_(gm_phase_bytes(soc)),
        skipping_(opt.steady_state && !opt.record_spans) {
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
      bw_.assign_rates(now);
      if (skipping_) steady_.at_event(ctxs_, bw_, now);
      double stall_end = kInf;
      double t_next = bw_.next_event(now, earliest_block_event(), stall_end);
      if (!(t_next < kInf)) throw SimError(deadlock_report(now));
      if (t_next < now) t_next = now;
      end_transfers(bw_.advance(now, t_next), t_next);
      if (stall_end <= t_next) bw_.unstall(t_next);
      now = t_next;
    }
    return finish();
  }

 private:
  const Soc& soc_;
  const EngineOptions& opt_;
  std::vector<Ctx> ctxs_;
  Bandwidth bw_;
  CostLookups lookups_;
  SteadyState steady_;
  const bool skipping_;
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
    if (skipping_) steady_.decode(c);
  }

  void activate(Ctx& c, double t) {
    c.active = true;
    // Before the kernel's first instruction the scalar unit runs the block's start work
    // (entry, tiling data loaded from GM, first instruction-fetch and TLB misses).
    const double start_work = soc_.launch_block_start_cycles;
    c.s_free = t + start_work;
    c.res.busy[kS] += start_work;
    c.res.start = t + steady_.skipped_cycles();  // the engine's clock is behind by the cycles skipped
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
    count_issued(c, idx);
    return true;
  }

  // The block's next record is issued: the scalar unit moves on to the one after it.
  void count_issued(Ctx& c, uint32_t idx) {
    ++c.next;
    ++c.res.instructions;
    if (skipping_) steady_.issued(c, idx);
  }

  bool issue_to_pipe(Ctx& c, Pipe p, uint32_t idx, double now) {
    if (p == Pipe::ALL || int(p) >= kPipes) throw SimError("record " + std::to_string(idx) + " names an invalid pipe");
    PipeState& ps = c.pipes[int(p)];
    if (ps.queue.size() >= soc_.queue_depth) return false;  // queue full: issue stalls
    ps.queue.push_back(idx);
    if (ps.mode == PipeMode::Idle) c.poll[int(p)] = -kInf;
    c.s_free = now + soc_.issue_cycles;
    c.res.busy[kS] += soc_.issue_cycles;
    count_issued(c, idx);
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
      ps.flow = int(bw_.start(f, c.trace->records[ps.pending_rec], now));
      if (skipping_) steady_.looked_up(c.block, ps.pending_rec, bw_.last_lookup());
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
      c.end_shift = steady_.skipped_cycles();
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
  // UB ports arbitrate per bank: while the vector instruction `v` runs, the core's transfers into
  // or out of the banks it uses lose soc.dma_vector_bank_stall of their rate.
  void stall_transfers(const Ctx& c, PipeState& v, const TraceRecord& r) {
    v.ub_banks = 0;
    if (soc_.dma_vector_bank_stall <= 0) return;
    v.ub_banks = ub_banks_touched(soc_, r);
    for (const PipeState& ps : c.pipes) {  // the core's transfers: one per pipe that moves data
      if (ps.mode != PipeMode::Flowing) continue;
      if ((bw_.flow(uint32_t(ps.flow)).ub_banks & v.ub_banks) == 0) continue;
      bw_.stall(uint32_t(ps.flow), v.until);
    }
  }

  // The pipes whose transfers (`done`, ended at t) finished: idle again, their instruction
  // complete after its latency.
  void end_transfers(const std::vector<uint32_t>& done, double t) {
    for (const uint32_t i : done) {
      const Flow& f = bw_.flow(i);
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
      count_issued(c, uint32_t(c.next));  // the SyncAll record
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
      c.res.end += c.end_shift;
      out_.cycles = std::max(out_.cycles, c.res.end);
      out_.blocks.push_back(c.res);
    }
    // Block starts (staggered dispatch, start work) and ends are inside `cycles`; what remains
    // is the scheduler's time before the first block and after the last.
    out_.skipped_instructions = steady_.skipped_instructions();
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
