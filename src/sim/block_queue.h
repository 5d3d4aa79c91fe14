// The timing engine's queue of blocks by their next event: a binary min-heap over block
// indices keyed by (time, block), with each block's position kept so that a block is in the
// queue at most once and a new time moves it in place. The engine changes a block's time at
// almost every event; a heap of (time, block) entries with superseded ones left behind grew
// with every change and compared pairs of doubles on every move.
#pragma once
#include <cstdint>
#include <vector>

namespace aoc::sim {

class BlockQueue {
 public:
  explicit BlockQueue(size_t blocks) : time_(blocks, 0), pos_(blocks, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  uint32_t top() const { return heap_.front(); }
  double top_time() const { return time_[heap_.front()]; }

  // Puts `block` in the queue at `time`, or moves it there.
  void set(uint32_t block, double time) {
    time_[block] = time;
    if (pos_[block] == kAbsent) {
      pos_[block] = uint32_t(heap_.size());
      heap_.push_back(block);
      sift_up(pos_[block]);
      return;
    }
    sift_down(sift_up(pos_[block]));
  }

  void remove(uint32_t block) {
    const uint32_t i = pos_[block];
    if (i == kAbsent) return;
    pos_[block] = kAbsent;
    const uint32_t last = heap_.back();
    heap_.pop_back();
    if (last == block) return;
    heap_[i] = last;
    pos_[last] = i;
    sift_down(sift_up(i));
  }

  void pop() { remove(top()); }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  bool before(uint32_t a, uint32_t b) const {
    return time_[a] < time_[b] || (time_[a] == time_[b] && a < b);
  }
  void place(uint32_t i, uint32_t block) {
    heap_[i] = block;
    pos_[block] = i;
  }
  uint32_t sift_up(uint32_t i) {
    const uint32_t block = heap_[i];
    while (i > 0) {
      const uint32_t parent = (i - 1) / 2;
      if (!before(block, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, block);
    return i;
  }
  void sift_down(uint32_t i) {
    const uint32_t block = heap_[i];
    const uint32_t n = uint32_t(heap_.size());
    for (;;) {
      uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], block)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, block);
  }

  std::vector<double> time_;    // by block
  std::vector<uint32_t> pos_;   // by block: index in heap_, kAbsent when not queued
  std::vector<uint32_t> heap_;  // blocks
};

}  // namespace aoc::sim
