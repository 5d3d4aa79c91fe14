// The timing engine's queue of blocks by their next event, earliest (time, block) first: a
// tournament tree over the blocks. Leaves hold the blocks' times in block order (infinity when a
// block is not queued) and each inner node the winner of its two children, the left one on equal
// times, so the root is the earliest block and, among equal times, the lowest. The engine changes
// a block's time at almost every event: a change replays only the matches on the block's path,
// and stops where a node's winner is unchanged and is not that block. (A binary heap with each
// block's position moved entries and positions at every step of its sifts and compared (time,
// block) pairs twice per level on the way down.)
#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace aoc::sim {

class BlockQueue {
 public:
  explicit BlockQueue(size_t blocks)
      : leaves_(std::bit_ceil(std::max<size_t>(blocks, 2))), time_(leaves_, kInf), win_(2 * leaves_) {
    for (uint32_t b = 0; b < leaves_; ++b) win_[leaves_ + b] = b;
    for (uint32_t i = leaves_ - 1; i >= 1; --i) win_[i] = win_[2 * i];  // all infinite: the left wins
  }

  bool empty() const { return !(time_[win_[1]] < kInf); }
  uint32_t top() const { return win_[1]; }
  double top_time() const { return time_[win_[1]]; }

  // Puts `block` in the queue at `time` (finite), or moves it there.
  void set(uint32_t block, double time) {
    if (time_[block] == time) return;
    time_[block] = time;
    replay(block);
  }

  void remove(uint32_t block) { set(block, kInf); }

  void pop() { remove(top()); }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  void replay(uint32_t block) {
    for (uint32_t i = (leaves_ + block) >> 1; i >= 1; i >>= 1) {
      const uint32_t a = win_[2 * i], b = win_[2 * i + 1];
      const uint32_t w = time_[b] < time_[a] ? b : a;
      if (w == win_[i] && w != block) return;  // nothing above this node changes
      win_[i] = w;
    }
  }

  uint32_t leaves_;             // a power of two, at least the number of blocks
  std::vector<double> time_;    // by block
  std::vector<uint32_t> win_;   // node i's winner; leaves at leaves_ + block
};

}  // namespace aoc::sim
