#include "sim/bandwidth.h"

#include <algorithm>

#include "sim/move_bytes.h"

namespace aoc::sim {
namespace {

constexpr double kEstimateSlack = 1e-6;  // relative, and absolute in cycles
double estimate_low(double e) { return e * (1 - kEstimateSlack) - kEstimateSlack; }
double estimate_high(double e) { return e * (1 + kEstimateSlack) + kEstimateSlack; }

// advance's tolerance: a flow finishing this close after the event time finishes with it.
double finish_limit(double t) { return t + 1e-9 * std::max(1.0, t); }

}  // namespace

Bandwidth::Bandwidth(const Soc& soc) : soc_(soc), l2_(soc.l2_bytes, soc.l2_line_bytes) {}

uint32_t Bandwidth::start(Flow f, const TraceRecord& r, double now) {
  double writeback = 0;
  last_lookup_.looked_up = false;
  if (f.res != Resource::None) writeback = route_through_l2(f, r);
  const uint32_t i = add(f, now);
  if (writeback > 0) add(Flow{f.ctx, kBackground, writeback, kInf, Resource::Hbm, true}, now);
  return i;
}

std::optional<L2Outcome> Bandwidth::lookup_l2(const TraceRecord& r, bool write) {
  const Range* gm = nullptr;
  if (write && r.has_write && r.write.space == Space::GM) gm = &r.write;
  if (!write && r.nreads > 0 && r.reads[0].space == Space::GM) gm = &r.reads[0];
  if (!gm || r.bytes == 0) return std::nullopt;
  L2Outcome o;
  const uint32_t n = std::max<uint32_t>(r.bursts, 1);
  const uint64_t len = r.burst_bytes ? r.burst_bytes : r.bytes / n;
  const uint64_t pitch = len + (write ? r.dst_gap : r.src_gap);
  const bool allocate = r.cache_mode != kCacheModeDisable;
  for (uint32_t i = 0; i < n; ++i) l2_.access(gm->lo + uint64_t(i) * pitch, len, write, allocate, o);
  return o;
}

// Looks the GM side of a transfer up in L2 when its bytes start to move (so the order of
// accesses across cores is the simulated order) and picks the pool it draws from: HBM when
// anything misses, with the bytes served by L2 converted to HBM time at the ratio of the two
// bandwidths; L2 otherwise. Returns the bytes of dirty lines the access evicts: the L2 writes
// them back to HBM in the background (a flow no pipe waits for), so they take HBM bandwidth
// from everyone, but the copy that evicted them does not wait for them. That is why a single
// buffered kernel writes back during its compute and copy-out phases, almost for free, while
// a kernel that keeps HBM reading all the time (double buffering) pays for every byte.
double Bandwidth::route_through_l2(Flow& f, const TraceRecord& r) {
  const bool write = f.res == Resource::L2;
  const std::optional<L2Outcome> looked_up = lookup_l2(r, write);
  if (!looked_up) return 0;
  const L2Outcome& o = *looked_up;
  last_lookup_ = L2Lookup{true, write, o};
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

void Bandwidth::background_flows(std::vector<BackgroundFlow>& out) const {
  for (size_t i = 0; i < slot_end_; ++i)
    if (flows_[i].live && flows_[i].pipe == kBackground) out.push_back({flows_[i].ctx, remaining_[i], rate_[i]});
}

// Puts the flow in a free slot of flows_ (slots never move, so indices held by pipes and pools
// stay valid) and returns the slot.
uint32_t Bandwidth::add(Flow f, double now) {
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

// UB ports arbitrate per bank: while the vector instruction runs, the flow loses
// soc.dma_vector_bank_stall of its rate.
void Bandwidth::stall(uint32_t i, double until) {
  Flow& f = flows_[i];
  f.stalled_until = std::max(f.stalled_until, until);
  if (!recap_[i]) pool_recaps_[int(f.res)].push_back({i, f.seq});
  recap_[i] = 1;
  pool_dirty_[int(f.res)] = true;
}

double Bandwidth::capacity_of(int pool) const {
  if (pool == int(Resource::None)) return kInf;
  if (pool == int(Resource::L2)) return soc_.l2_write_bytes_per_cycle;
  // HBM loses capacity to read/write turnarounds while it both reads and writes back.
  const double mix = (hbm_reads_ > 0 && hbm_writes_ > 0) ? soc_.rw_mix_efficiency : 1.0;
  return soc_.hbm_read_bytes_per_cycle * mix;
}

double Bandwidth::effective_cap(const Flow& f, double now) const {
  return f.stalled_until > now ? f.cap * (1.0 - soc_.dma_vector_bank_stall) : f.cap;
}

void Bandwidth::assign_rates(double now) {
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

// Gives flow i its rate and its finish bound (now + remaining / rate, see finish_low_).
void Bandwidth::set_rate(uint32_t i, double rate, double now, PoolBounds& b) {
  rate_[i] = rate;
  const double finish = rate > 0 ? now + remaining_[i] / rate : kInf;
  finish_low_[i] = estimate_low(finish);
  b.first = std::min(b.first, finish);
}

// Brings a pool's order up to date: flows whose stall changed or ended take their new cap and
// move to its place (flows joined and left it as they started and finished). Returns the
// first end of a stall of its flows.
double Bandwidth::order_pool(int r, double now) {
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

bool Bandwidth::current(const Tracked& t) const {
  const Flow& f = flows_[t.index];
  return f.live && f.seq == t.seq;
}

// A new cap for a flow whose stall changed or ended, and its new place in the pool.
void Bandwidth::recap(int r, uint32_t i, double now) {
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
void Bandwidth::share_pool(int r, double now, PoolBounds& b) {
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

// A flow finishes exactly at now + remaining / rate. Only flows whose estimate can come first
// are divided out; they are kept in near_ for advance.
double Bandwidth::next_event(double now, double t_blocks, double& stall_end) {
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

const std::vector<uint32_t>& Bandwidth::advance(double now, double t) {
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
  if (!done_.empty()) remove_finished();
  return done_;
}

// Ends the flows in done_ (set to 0 bytes: those of near_ finishing by t) and frees their
// slots and places in their pools. No other flow runs out of bytes: one that would finish
// later than finish_limit(t) keeps more than rate * 1e-9 * t bytes, far above the rounding of
// the subtractions, and every flow that can finish by then is in near_. Slot order, as a scan
// of the slots took them.
void Bandwidth::remove_finished() {
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
  }
  while (slot_end_ > 0 && !flows_[slot_end_ - 1].live) --slot_end_;
}

void Bandwidth::unstall(double t) {
  for (int r = 0; r < kPools; ++r)
    if (pool_stall_end_[r] <= t) pool_dirty_[r] = true;
}

}  // namespace aoc::sim
