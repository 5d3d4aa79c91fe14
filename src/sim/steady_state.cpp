#include "sim/steady_state.h"

#include <algorithm>
#include <cmath>

#include "sim/record_signature.h"

namespace aoc::sim::detail {
namespace {

constexpr size_t kRing = 16;              // snapshots kept to compare a new one with
constexpr uint64_t kMinPeriods = 2;       // fewer are not worth a skip
// An anchor the block has not issued twice within rearm_ records is replaced by the record it
// issued last (a prologue's record never comes round); the allowance doubles each time, up to
// kMaxRearm, for loops with long bodies.
constexpr size_t kFirstRearm = 64, kMaxRearm = 65536;
constexpr uint64_t kMissesBeforeSparser = 64;
constexpr uint64_t kMaxStride = 64;

// Times and amounts equal up to the rounding of differences of large absolute times.
bool close(double a, double b) {
  if (a == b) return true;
  return std::fabs(a - b) <= 1e-6 + 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

bool same_outcome(const L2Outcome& a, const L2Outcome& b) {
  return a.hit_bytes == b.hit_bytes && a.miss_bytes == b.miss_bytes && a.writeback_bytes == b.writeback_bytes;
}

uint64_t hash_ints(const std::vector<int64_t>& v) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int64_t x : v) {
    h ^= uint64_t(x) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

bool same_state(const Snapshot& a, const Snapshot& b) {
  if (a.hash != b.hash || a.ints != b.ints || a.reals.size() != b.reals.size()) return false;
  for (size_t i = 0; i < a.reals.size(); ++i)
    if (!close(a.reals[i], b.reals[i])) return false;
  return true;
}

}  // namespace

void SteadyState::decode(Ctx& c) const {
  const auto& recs = c.trace->records;
  c.sig.resize(recs.size());
  for (size_t i = 0; i < recs.size(); ++i) c.sig[i] = timing_signature(recs[i], gm_phase_);
}

// The anchor: the lowest block still running, and the record it issued last.
void SteadyState::arm(std::vector<Ctx>& ctxs) {
  anchor_ = nullptr;
  for (const Ctx& c : ctxs)
    if (c.active && !c.finished && c.next > 0) {
      anchor_ = &c;
      break;
    }
  ring_.clear();
  forget_before(log_base_ + log_.size());
  due_ = false;
  hits_ = 0;
  misses_ = 0;
  stride_ = 1;
  if (!anchor_) return;
  anchor_sig_ = anchor_->sig[anchor_->next - 1];
  armed_at_ = anchor_->next;
}

bool SteadyState::at_event(std::vector<Ctx>& ctxs, Bandwidth& bw, double now) {
  if (!anchor_ || anchor_->finished) {
    rearm_ = kFirstRearm;
    arm(ctxs);
    return false;
  }
  if (hits_ < 2 && anchor_->next - armed_at_ > rearm_) {
    rearm_ = std::min(rearm_ * 2, kMaxRearm);
    arm(ctxs);
    return false;
  }
  if (!due_) return false;
  due_ = false;
  ++hits_;
  if (cooldown_ > 0) {
    --cooldown_;
    return false;
  }
  if (hits_ % stride_ != 0) return false;
  Snapshot s = capture(ctxs, bw, now);
  for (size_t k = ring_.size(); k-- > 0;) {
    if (!same_state(ring_[k], s)) continue;
    if (try_skip(ctxs, bw, ring_[k], s)) {
      ring_.clear();
      forget_before(log_base_ + log_.size());
      misses_ = 0;
      stride_ = 1;
      return true;
    }
    break;  // an earlier match would be a multiple of this period, with the same answer
  }
  if (++misses_ >= kMissesBeforeSparser) {
    misses_ = 0;
    stride_ = std::min(stride_ * 2, kMaxStride);
  }
  ring_.push_back(std::move(s));
  if (ring_.size() > kRing) ring_.erase(ring_.begin());
  forget_before(ring_.front().lookups);
  return false;
}

void SteadyState::forget_before(size_t lookups) {
  const size_t drop = std::min(lookups - log_base_, log_.size());
  // Compacts only when the dead prefix is at least half the log: amortised constant per lookup.
  if (drop * 2 < log_.size() && drop < log_.size()) return;
  log_.erase(log_.begin(), log_.begin() + std::ptrdiff_t(drop));
  log_base_ += drop;
}

// Everything the engine's future depends on, relative to `now` and to each block's next record.
// A time already past counts as now where the engine only ever takes it with max(now, t).
Snapshot SteadyState::capture(const std::vector<Ctx>& ctxs, const Bandwidth& bw, double now) {
  Snapshot s;
  s.now = now;
  s.lookups = log_base_ + log_.size();
  s.hit = hits_;
  auto& I = s.ints;
  auto& R = s.reals;
  auto past = [&](double t) { return std::max(0.0, t - now); };
  for (const Ctx& c : ctxs) {
    I.push_back(int64_t(c.active) | int64_t(c.finished) << 1 | int64_t(c.sync_arrived) << 2);
    s.next.push_back(c.next);
    s.busy.push_back(c.res.busy);
    s.instructions.push_back(c.res.instructions);
    size_t low = c.next;
    if (c.active && !c.finished) {
      const auto rel = [&](size_t idx) { return int64_t(idx) - int64_t(c.next); };
      R.push_back(past(c.s_free));
      if (c.sync_arrived) R.push_back(c.sync_time - now);
      for (int p = 0; p < kPipes; ++p) {
        const PipeState& ps = c.pipes[p];
        R.push_back(past(ps.last_done));
        I.push_back(int64_t(ps.mode));
        I.push_back(int64_t(ps.queue.size()));
        for (size_t q = 0; q < ps.queue.size(); ++q) {
          I.push_back(rel(ps.queue[q]));
          low = std::min<size_t>(low, ps.queue[q]);
        }
        switch (ps.mode) {
          case PipeMode::Idle: break;
          case PipeMode::Fixed:
            R.push_back(past(ps.until));
            if (p == int(Pipe::V)) I.push_back(int64_t(ps.ub_banks));
            break;
          case PipeMode::FlowPending:
            I.push_back(rel(ps.pending_rec));
            I.push_back(int64_t(ps.pending_res));
            low = std::min<size_t>(low, ps.pending_rec);
            R.insert(R.end(), {past(ps.until), ps.cur_start - now, ps.cur_latency, ps.pending_bytes, ps.pending_cap});
            break;
          case PipeMode::Flowing: {
            const Flow& f = bw.flow(uint32_t(ps.flow));
            I.push_back(rel(ps.pending_rec));
            I.push_back(int64_t(f.res));
            low = std::min<size_t>(low, ps.pending_rec);
            R.insert(R.end(), {ps.cur_start - now, ps.cur_latency, bw.remaining(uint32_t(ps.flow)),
                               bw.rate(uint32_t(ps.flow)), f.cap, past(f.stalled_until)});
            break;
          }
        }
      }
      for (const auto& q : c.flags) {
        I.push_back(int64_t(q.size()));
        for (size_t k = 0; k < q.size(); ++k) R.push_back(past(q[k].time));
      }
    }
    s.low.push_back(low);
  }
  std::vector<BackgroundFlow> bg;
  bw.background_flows(bg);
  std::sort(bg.begin(), bg.end(), [](const BackgroundFlow& a, const BackgroundFlow& b) {
    return a.ctx != b.ctx ? a.ctx < b.ctx : a.remaining < b.remaining;
  });
  I.push_back(int64_t(bg.size()));
  for (const auto& f : bg) {
    I.push_back(f.ctx);
    R.push_back(f.remaining);
    R.push_back(f.rate);
  }
  s.hash = hash_ints(I);
  return s;
}

bool SteadyState::try_skip(std::vector<Ctx>& ctxs, Bandwidth& bw, const Snapshot& a, const Snapshot& b) {
  if (!(b.now > a.now)) return false;
  std::vector<size_t> stride(ctxs.size());
  for (size_t i = 0; i < ctxs.size(); ++i) stride[i] = b.next[i] - a.next[i];
  // A block that issued nothing cannot have moved data.
  for (size_t k = a.lookups; k < b.lookups; ++k)
    if (stride[log_[k - log_base_].block] == 0) return false;
  uint64_t periods = periods_in_traces(ctxs, a, b, stride);
  if (periods < kMinPeriods) return false;
  const uint64_t same = replay_l2(ctxs, bw, a, b, stride, periods);
  if (same < periods) {
    // The period after them looks L2 up differently: simulated, with the periods around it,
    // before another skip is tried.
    cooldown_ = 2 * std::max<uint64_t>(b.hit - a.hit, 1);
    periods = same;
  }
  if (periods == 0) return false;
  shift(ctxs, a, b, stride, periods);
  skipped_cycles_ += double(periods) * (b.now - a.now);
  return true;
}

// The periods every running block's trace still repeats for: for block i, with stride d, its
// records from the lowest one snapshot a refers to up to its next record after the last period
// must each equal the record d later, so that every period meets the records the window met.
uint64_t SteadyState::periods_in_traces(const std::vector<Ctx>& ctxs, const Snapshot& a, const Snapshot& b,
                                        const std::vector<size_t>& stride) const {
  uint64_t best = UINT64_MAX;
  for (size_t i = 0; i < ctxs.size(); ++i) {
    const Ctx& c = ctxs[i];
    const size_t d = stride[i];
    if (!c.active || c.finished || d == 0) continue;
    const size_t next = b.next[i];
    size_t limit = c.nrec - d;  // j + d stays inside the trace
    if (best != UINT64_MAX) limit = std::min(limit, next + (best - 1) * d + 1);  // no block needs more
    const uint64_t* sig = c.sig.data();
    size_t j = a.low[i];
    while (j < limit && sig[j] == sig[j + d]) ++j;
    if (j <= next) return 0;
    best = std::min<uint64_t>(best, (j - 1 - next) / d + 1);
  }
  return best == UINT64_MAX ? 0 : best;
}

// Makes the L2 lookups of `periods` periods after b, in the window's order, and checks each
// against the window's outcome. Returns how many periods matched; the L2 is left as those
// periods leave it.
uint64_t SteadyState::replay_l2(const std::vector<Ctx>& ctxs, Bandwidth& bw, const Snapshot& a, const Snapshot& b,
                                const std::vector<size_t>& stride, uint64_t periods) {
  const size_t first = a.lookups - log_base_, last = b.lookups - log_base_;
  if (first == last) return periods;
  auto lookup = [&](const L2Access& x, uint64_t k) {
    const TraceRecord& r = ctxs[x.block].trace->records[x.rec + k * stride[x.block]];
    return bw.lookup_l2(r, x.write);
  };
  const L2Cache saved = bw.l2();
  for (uint64_t k = 1; k <= periods; ++k)
    for (size_t e = first; e < last; ++e) {
      const std::optional<L2Outcome> o = lookup(log_[e], k);
      if (o && same_outcome(*o, log_[e].outcome)) continue;
      bw.set_l2(saved);
      for (uint64_t m = 1; m < k; ++m)
        for (size_t f = first; f < last; ++f) lookup(log_[f], m);
      return k - 1;
    }
  return periods;
}

// Moves each running block on by `periods` periods: record indices (next, queued, in flight,
// flags) by periods * its stride, busy times and instruction counts by periods times the window's.
void SteadyState::shift(std::vector<Ctx>& ctxs, const Snapshot& a, const Snapshot& b, const std::vector<size_t>& stride,
                        uint64_t periods) {
  for (size_t i = 0; i < ctxs.size(); ++i) {
    Ctx& c = ctxs[i];
    if (!c.active || c.finished) continue;
    const uint32_t delta = uint32_t(periods * stride[i]);
    for (PipeState& ps : c.pipes) {
      for (size_t q = 0; q < ps.queue.size(); ++q) ps.queue[q] += delta;
      if (ps.mode == PipeMode::FlowPending || ps.mode == PipeMode::Flowing) ps.pending_rec += delta;
    }
    for (auto& q : c.flags)
      for (size_t k = 0; k < q.size(); ++k) q[k].rec += delta;
    c.next += delta;
    for (int p = 0; p < kPipes; ++p) c.res.busy[p] += double(periods) * (b.busy[i][p] - a.busy[i][p]);
    const uint64_t ins = periods * (b.instructions[i] - a.instructions[i]);
    c.res.instructions += ins;
    skipped_instructions_ += ins;
  }
}

}  // namespace aoc::sim::detail
