#include "sim/l2_cache.h"

#include <algorithm>

namespace aoc::sim {

L2Cache::L2Cache(uint64_t capacity_bytes, uint32_t line_bytes)
    : capacity_lines_(line_bytes ? capacity_bytes / line_bytes : 0), line_bytes_(std::max<uint32_t>(line_bytes, 1)) {}

uint64_t L2Cache::bytes_of(uint64_t addr, uint64_t end, uint64_t a, uint64_t b) const {
  return std::min(end, (b + 1) * line_bytes_) - std::max(addr, a * line_bytes_);
}

uint32_t L2Cache::new_run(uint64_t lo, uint64_t n, bool dirty) {
  uint32_t r;
  if (free_runs_.empty()) {
    r = uint32_t(runs_.size());
    runs_.emplace_back();
  } else {
    r = free_runs_.back();
    free_runs_.pop_back();
  }
  runs_[r] = Run{lo, n, dirty, kNone, kNone};
  by_first_line_.insert(lo, r);
  return r;
}

void L2Cache::link_after(uint32_t r, uint32_t older) {
  Run& x = runs_[r];
  x.older = older;
  x.newer = older == kNone ? oldest_ : runs_[older].newer;
  (x.older != kNone ? runs_[x.older].newer : oldest_) = r;
  (x.newer != kNone ? runs_[x.newer].older : newest_) = r;
}

void L2Cache::unlink(uint32_t r) {
  const Run& x = runs_[r];
  (x.newer != kNone ? runs_[x.newer].older : newest_) = x.older;
  (x.older != kNone ? runs_[x.older].newer : oldest_) = x.newer;
}

void L2Cache::drop(uint32_t r) {
  unlink(r);
  by_first_line_.erase(runs_[r].lo);
  free_runs_.push_back(r);
}

void L2Cache::rekey(uint32_t r, uint64_t lo) {
  by_first_line_.rekey(runs_[r].lo, lo);
  runs_[r].lo = lo;
}

void L2Cache::push_newest(uint64_t lo, uint64_t n, bool dirty) {
  // Lines right after the newest run's, as dirty as they: they simply extend it.
  if (newest_ != kNone) {
    Run& last = runs_[newest_];
    if (last.dirty == dirty && last.lo + last.n == lo) {
      last.n += n;
      return;
    }
  }
  link_after(new_run(lo, n, dirty), newest_);
}

void L2Cache::touch(uint32_t r, uint64_t a, uint64_t b, bool write) {
  const Run x = runs_[r];
  const uint64_t hi = x.lo + x.n - 1;
  const bool dirty = x.dirty || write;
  if (r == newest_ && b == hi) {  // already the most recent lines, in this order
    if (a == x.lo || dirty == x.dirty) {
      if (a == x.lo) runs_[r].dirty = dirty;
      return;
    }
  }
  // What stays keeps the run's place: the lines before a, then those after b.
  const bool left = a > x.lo, right = b < hi;
  if (left && right) {
    runs_[r].n = a - x.lo;
    link_after(new_run(b + 1, hi - b, x.dirty), r);
  } else if (left) {
    runs_[r].n = a - x.lo;
  } else if (right) {
    runs_[r].n = hi - b;
    rekey(r, b + 1);
  } else {
    drop(r);
  }
  push_newest(a, b - a + 1, dirty);
}

void L2Cache::evict(uint64_t lines, L2Outcome& out) {
  while (lines > 0) {
    const uint32_t r = oldest_;
    Run& x = runs_[r];
    const uint64_t take = std::min(lines, x.n);
    if (x.dirty) out.writeback_bytes += take * line_bytes_;
    resident_ -= take;
    lines -= take;
    if (take == x.n) {
      drop(r);
    } else {
      x.n -= take;
      rekey(r, x.lo + take);
    }
  }
}

void L2Cache::allocate(uint64_t a, uint64_t b, bool dirty, L2Outcome& out) {
  // Line by line, each allocation past the capacity evicts the oldest line: first the lines
  // that were resident, then (an allocation larger than the cache) the earliest of these.
  const uint64_t n = b - a + 1;
  const uint64_t over = resident_ + n > capacity_lines_ ? resident_ + n - capacity_lines_ : 0;
  const uint64_t old_lines = std::min(over, resident_);
  evict(old_lines, out);
  const uint64_t own = over - old_lines;
  if (dirty) out.writeback_bytes += own * line_bytes_;
  const uint64_t kept = n - own;
  if (kept == 0) return;
  push_newest(b - kept + 1, kept, dirty);
  resident_ += kept;
}

void L2Cache::access(uint64_t addr, uint64_t bytes, bool write, bool allocate_reads, L2Outcome& out) {
  if (bytes == 0) return;
  if (capacity_lines_ == 0) {
    (write ? out.hit_bytes : out.miss_bytes) += bytes;
    return;
  }
  const uint64_t end = addr + bytes;
  const uint64_t last = (end - 1) / line_bytes_;
  for (uint64_t cur = addr / line_bytes_; cur <= last;) {
    const RunIndex::Around around = by_first_line_.around(cur);  // the run starting at or before cur, the next start
    if (around.value != RunIndex::kNone) {
      const uint32_t r = around.value;
      const Run& x = runs_[r];
      if (cur < x.lo + x.n) {  // resident: lines up to the end of the run hit
        const uint64_t b = std::min(last, x.lo + x.n - 1);
        out.hit_bytes += bytes_of(addr, end, cur, b);
        touch(r, cur, b, write);
        cur = b + 1;
        continue;
      }
    }
    // Absent: lines up to the next resident one miss.
    const uint64_t b = around.next == RunIndex::kNoKey ? last : std::min(last, around.next - 1);
    const uint64_t part = bytes_of(addr, end, cur, b);
    if (write) {
      out.hit_bytes += part;
      allocate(cur, b, true, out);
    } else {
      // Only the requested bytes are charged: the cost of touching partial 512 B
      // windows is the engine's alignment penalty, which must not be counted twice.
      out.miss_bytes += part;
      if (allocate_reads) allocate(cur, b, false, out);
    }
    cur = b + 1;
  }
}

}  // namespace aoc::sim
