// The L2 model against a plain LRU list searched line by line: the same hits, misses and
// write-backs for every access of long random sequences, including evictions, reuse of
// evicted slots, and transfers of many lines that hit, split and evict the model's runs of
// lines (parts of earlier transfers, transfers larger than the cache).
#include "sim/l2_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "base/rng.h"

namespace {

using aoc::sim::L2Cache;
using aoc::sim::L2Outcome;

// Fully associative, least recently used first out, write-allocate, write-back.
class PlainLru {
 public:
  PlainLru(uint64_t capacity_lines, uint64_t line) : cap_(capacity_lines), line_(line) {}
  void access(uint64_t addr, uint64_t bytes, bool write, bool allocate, L2Outcome& out) {
    if (bytes == 0) return;
    for (uint64_t tag = addr / line_; tag <= (addr + bytes - 1) / line_; ++tag) {
      const uint64_t part = std::min(addr + bytes, (tag + 1) * line_) - std::max(addr, tag * line_);
      auto it = std::find_if(lines_.begin(), lines_.end(), [&](const auto& l) { return l.first == tag; });
      if (it != lines_.end()) {
        out.hit_bytes += part;
        auto l = *it;
        l.second = l.second || write;
        lines_.erase(it);
        lines_.push_front(l);
        continue;
      }
      (write ? out.hit_bytes : out.miss_bytes) += part;
      if (!write && !allocate) continue;
      if (lines_.size() >= cap_) {
        if (lines_.back().second) out.writeback_bytes += line_;
        lines_.pop_back();
      }
      lines_.push_front({tag, write});
    }
  }
  uint64_t resident_bytes() const { return lines_.size() * line_; }

 private:
  uint64_t cap_, line_;
  std::deque<std::pair<uint64_t, bool>> lines_;  // (line number, dirty), most recent first
};

void expect_same_as_plain_lru(uint64_t capacity_lines, uint64_t address_lines, uint64_t seed, int accesses,
                              uint64_t max_lines = 6, bool whole_lines_too = false) {
  constexpr uint32_t kLine = 512;
  L2Cache l2(capacity_lines * kLine, kLine);
  PlainLru ref(capacity_lines, kLine);
  aoc::base::Xoshiro256 rng(seed);
  for (int i = 0; i < accesses; ++i) {
    uint64_t addr = rng.next() % (address_lines * kLine);
    if (whole_lines_too && rng.next() % 2 == 0) addr -= addr % kLine;  // as most transfers
    const uint64_t bytes = rng.next() % (max_lines * kLine);
    const bool write = rng.next() % 3 == 0;
    const bool allocate = rng.next() % 5 != 0;
    L2Outcome a, b;
    l2.access(addr, bytes, write, allocate, a);
    ref.access(addr, bytes, write, allocate, b);
    ASSERT_EQ(a.hit_bytes, b.hit_bytes) << "access " << i;
    ASSERT_EQ(a.miss_bytes, b.miss_bytes) << "access " << i;
    ASSERT_EQ(a.writeback_bytes, b.writeback_bytes) << "access " << i;
    ASSERT_EQ(l2.resident_bytes(), ref.resident_bytes()) << "access " << i;
  }
}

TEST(L2Cache, MatchesPlainLruWhenTheWorkingSetFits) { expect_same_as_plain_lru(4096, 3000, 1, 20000); }

TEST(L2Cache, MatchesPlainLruUnderEviction) { expect_same_as_plain_lru(64, 200, 2, 20000); }

TEST(L2Cache, MatchesPlainLruWithATableLargerThanItsStart) { expect_same_as_plain_lru(3000, 6000, 3, 20000); }

TEST(L2Cache, SingleLineCache) { expect_same_as_plain_lru(1, 8, 4, 5000); }

// Transfers of up to 40 lines over a region a few times the cache: they hit parts of earlier
// transfers, split them, and evict several at once; some are larger than the cache.
TEST(L2Cache, MatchesPlainLruOnLongTransfers) { expect_same_as_plain_lru(256, 900, 5, 6000, 40, true); }

TEST(L2Cache, MatchesPlainLruOnTransfersLargerThanTheCache) { expect_same_as_plain_lru(24, 120, 6, 6000, 40, true); }

TEST(L2Cache, DisabledCacheMissesReadsAndPassesWrites) {
  L2Cache l2(0, 512);
  L2Outcome o;
  l2.access(0, 1000, false, true, o);
  l2.access(0, 300, true, true, o);
  EXPECT_EQ(o.miss_bytes, 1000u);
  EXPECT_EQ(o.hit_bytes, 300u);
  EXPECT_EQ(l2.resident_bytes(), 0u);
}

TEST(L2Cache, PartialLinesChargeOnlyTheRequestedBytes) {
  L2Cache l2(1 << 20, 512);
  L2Outcome o;
  l2.access(500, 30, false, true, o);  // two lines, 12 + 18 bytes
  EXPECT_EQ(o.miss_bytes, 30u);
  EXPECT_EQ(l2.resident_bytes(), 1024u);
  L2Outcome again;
  l2.access(0, 1024, false, true, again);
  EXPECT_EQ(again.hit_bytes, 1024u);
  EXPECT_EQ(again.miss_bytes, 0u);
}

}  // namespace
