// The chip's shared L2 cache as the timing engine sees it: which bytes of a GM transfer
// hit, which must come from HBM, and which dirty lines a new allocation pushes out to HBM.
// Lines are allocated on read misses (unless the transfer bypasses L2) and on writes
// (write-back, write-allocate without a fetch), and evicted least recently used first
// (fully associative). Only what the timing needs is kept: line addresses, recency and
// dirtiness.
//
// An access handles its lines in address order, and each line it touches or allocates becomes
// the most recent: the lines of one transfer end up next to each other in the recency order, in
// address order, and leave it in that order. So the recency list is kept as runs of consecutive
// lines (oldest first within a run) with one dirty bit per run, found by their first line
// (sim/run_index.h): a transfer of 32 lines that misses is one run inserted and a few runs evicted or
// trimmed, instead of 32 lookups, insertions and evictions. The order of lines, hence every hit,
// miss and write-back, is the per-line LRU's (tests/sim/l2_cache_test.cpp compares the two).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/run_index.h"

namespace aoc::sim {

struct L2Outcome {
  uint64_t hit_bytes = 0;        // requested bytes found in L2 (reads) or written into L2 (writes)
  uint64_t miss_bytes = 0;       // bytes read from HBM (whole lines when they are allocated)
  uint64_t writeback_bytes = 0;  // dirty lines evicted to HBM to make room
};

class L2Cache {
 public:
  // capacity_bytes == 0 disables the cache: every read misses and writes go straight through.
  L2Cache(uint64_t capacity_bytes, uint32_t line_bytes);

  // One contiguous burst [addr, addr + bytes). `allocate` false: a read that misses is not
  // kept (CACHE_MODE_DISABLE); hits are still served from L2.
  void access(uint64_t addr, uint64_t bytes, bool write, bool allocate, L2Outcome& out);

  uint64_t resident_bytes() const { return resident_ * line_bytes_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  // Lines lo .. lo + n - 1, each more recent than the one before.
  struct Run {
    uint64_t lo = 0, n = 0;
    bool dirty = false;
    uint32_t older = kNone, newer = kNone;  // recency list: indices into runs_
  };

  uint64_t bytes_of(uint64_t addr, uint64_t end, uint64_t a, uint64_t b) const;  // of [addr, end) in lines a..b
  void touch(uint32_t r, uint64_t a, uint64_t b, bool write);                    // lines a..b of run r become the most recent
  void allocate(uint64_t a, uint64_t b, bool dirty, L2Outcome& out);             // lines a..b, absent, become the most recent
  void evict(uint64_t lines, L2Outcome& out);                                    // the oldest `lines` lines leave
  void push_newest(uint64_t lo, uint64_t n, bool dirty);
  uint32_t new_run(uint64_t lo, uint64_t n, bool dirty);  // in the map, not yet in the recency list
  void link_after(uint32_t r, uint32_t older);            // into the recency list just after `older` (kNone: oldest)
  void unlink(uint32_t r);
  void drop(uint32_t r);             // out of the list and the map; its slot is reused
  void rekey(uint32_t r, uint64_t lo);  // the run now starts at line lo

  uint64_t capacity_lines_ = 0;
  uint32_t line_bytes_ = 512;
  uint64_t resident_ = 0;
  std::vector<Run> runs_;
  std::vector<uint32_t> free_runs_;
  RunIndex by_first_line_;
  uint32_t newest_ = kNone, oldest_ = kNone;
};

}  // namespace aoc::sim
