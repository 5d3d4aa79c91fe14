// First-in first-out queue over one vector, for the engine's per-pipe instruction queues
// and flag queues: a simulation makes hundreds of them, and std::deque allocates on
// construction and per chunk, which costs more than the short queues' work.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace aoc::sim {

template <class T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  const T& front() const { return items_[head_]; }
  // The i-th queued item, from the front.
  const T& operator[](size_t i) const { return items_[head_ + i]; }
  T& operator[](size_t i) { return items_[head_ + i]; }
  void push_back(const T& v) { items_.push_back(v); }
  void pop_front() {
    ++head_;
    // Drop the consumed prefix once it is at least half of the storage (amortized O(1)).
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 32 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }

 private:
  std::vector<T> items_;
  size_t head_ = 0;
};

}  // namespace aoc::sim
