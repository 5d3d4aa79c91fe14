// The chip's shared L2 cache as the timing engine sees it: which bytes of a GM transfer
// hit, which must come from HBM, and which dirty lines a new allocation pushes out to HBM.
// Lines are allocated on read misses (unless the transfer bypasses L2) and on writes
// (write-back, write-allocate without a fetch), and evicted least recently used first.
// Only what the timing needs is kept: line addresses, recency and dirtiness.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>

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

  uint64_t resident_bytes() const { return uint64_t(lines_.size()) * line_bytes_; }

 private:
  struct Line {
    uint64_t tag;
    bool dirty;
  };
  void touch(std::list<Line>::iterator it);
  void insert(uint64_t tag, bool dirty, L2Outcome& out);

  uint64_t capacity_lines_ = 0;
  uint32_t line_bytes_ = 512;
  std::list<Line> lru_;  // most recent first
  std::unordered_map<uint64_t, std::list<Line>::iterator> lines_;
};

}  // namespace aoc::sim
