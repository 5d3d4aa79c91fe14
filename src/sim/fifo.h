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

// Queues by a small integer key (a kernel uses a handful of flag keys): a linear search
// over the keys seen so far, kept apart from the queues so that the search reads one cache
// line; operator[] adds an empty queue for a new key. A reference is valid until the next
// new key.
template <class T>
class FifoTable {
 public:
  Fifo<T>& operator[](uint32_t key) {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return queues_[i];
    keys_.push_back(key);
    return queues_.emplace_back();
  }

 private:
  std::vector<uint32_t> keys_;
  std::vector<Fifo<T>> queues_;
};

}  // namespace aoc::sim
