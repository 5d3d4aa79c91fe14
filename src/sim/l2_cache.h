// The chip's shared L2 cache as the timing engine sees it: which bytes of a GM transfer
// hit, which must come from HBM, and which dirty lines a new allocation pushes out to HBM.
// Lines are allocated on read misses (unless the transfer bypasses L2) and on writes
// (write-back, write-allocate without a fetch), and evicted least recently used first
// (fully associative). Only what the timing needs is kept: line addresses, recency and
// dirtiness.
//
// The engine looks up every 512 B line of every GM transfer, so the lookup is O(1) with no
// allocation in the steady state: the lines live in a pool threaded by a recency list of
// indices and found through hash chains keyed by line number. Both grow with the lines a
// kernel touches, not with the size of the L2 (393,216 lines on Ascend910B1), so simulating
// a small kernel does not pay for clearing a table of the whole cache.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

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

  uint64_t resident_bytes() const { return uint64_t(resident_) * line_bytes_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Line {
    uint64_t tag;
    uint32_t newer, older;  // recency list: indices into lines_, kNone at either end
    uint32_t chain;         // next line of the same bucket
    bool dirty;
  };

  uint32_t find(uint64_t tag) const;  // index into lines_, or kNone
  void touch(uint32_t i);             // make line i the most recent
  void unlink(uint32_t i);
  void push_front(uint32_t i);
  void insert(uint64_t tag, bool dirty, L2Outcome& out);
  size_t bucket_of(uint64_t tag) const;
  void chain_in(uint32_t i);
  void chain_out(uint32_t i);
  void grow_buckets();

  uint64_t capacity_lines_ = 0;
  uint32_t line_bytes_ = 512;
  std::vector<Line> lines_;  // every line allocated so far; an evicted line's slot is reused
  uint32_t newest_ = kNone, oldest_ = kNone;
  uint64_t resident_ = 0;
  std::vector<uint32_t> buckets_;  // first line of each hash chain
  int bucket_bits_ = 0;
};

}  // namespace aoc::sim
