// The timing engine's queue of blocks by their next event: a binary min-heap over block
// indices keyed by (time, block), with each block's position kept so that a block is in the
// queue at most once and a new time moves it in place. The engine changes a block's time at
// almost every event; a heap of (time, block) entries with superseded ones left behind grew
// with every change and compared pairs of doubles on every move.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace aoc::sim {

class BlockQueue {
 public:
  explicit BlockQueue(size_t blocks) : pos_(blocks, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  uint32_t top() const { return heap_.front().block; }
  double top_time() const { return heap_.front().time; }

  // Puts `block` in the queue at `time`, or moves it there.
  void set(uint32_t block, double time) {
    const Entry e{time, block};
    uint32_t i = pos_[block];
    if (i == kAbsent) {
      i = uint32_t(heap_.size());
      heap_.push_back(e);
    } else if (heap_[i].time == time) {
      return;
    }
    sift_down(sift_up(i, e), e);
  }

  void remove(uint32_t block) {
    const uint32_t i = pos_[block];
    if (i == kAbsent) return;
    pos_[block] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (last.block == block) return;
    sift_down(sift_up(i, last), last);
  }

  void pop() { remove(top()); }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  struct Entry {
    double time;
    uint32_t block;
  };

  static bool before(const Entry& a, const Entry& b) {
    return a.time < b.time || (a.time == b.time && a.block < b.block);
  }
  void place(uint32_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.block] = i;
  }
  // Moves the hole at i up while e belongs above it; returns where e goes (not yet placed).
  uint32_t sift_up(uint32_t i, const Entry& e) {
    while (i > 0) {
      const uint32_t parent = (i - 1) / 2;
      if (!before(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    return i;
  }
  // Moves the hole at i down while a child belongs above e, then places e.
  void sift_down(uint32_t i, const Entry& e) {
    const uint32_t n = uint32_t(heap_.size());
    for (;;) {
      uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }

  std::vector<uint32_t> pos_;  // by block: index in heap_, kAbsent when not queued
  std::vector<Entry> heap_;
};

}  // namespace aoc::sim
