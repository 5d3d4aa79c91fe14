// Max-min fair share of one pool as a chain of equal splits: while the next flow's cap is not
// below its share, each of the m flows left takes share = left / m and leaves left - share. That
// chain depends only on (left, m), and the same few (usually the whole capacity and the number of
// flows not capped) recur at every change of a pool's flows, so its steps are kept: reusing them
// gives the very values the divisions and subtractions give.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace aoc::sim {

class ShareChains {
 public:
  struct Chain {
    std::vector<double> left;   // left before step j
    std::vector<double> share;  // left[j] / (m - j)
    size_t m = 0;
  };
  // A direct-mapped table: a chain whose slot another (left, m) takes is simply computed again.
  // It starts small (most kernels have a few flows) and doubles while chains keep being lost.
  Chain& find(double left, size_t m) {
    const uint64_t bits = std::bit_cast<uint64_t>(left);
    Slot& s = slots_[((bits * 0x9e3779b97f4a7c15ull) >> 40 ^ m) & (slots_.size() - 1)];
    if (s.left_bits != bits || s.chain.m != m || s.chain.left.empty()) {
      if (++misses_ > 4 * slots_.size() && slots_.size() < kMaxSlots) {
        slots_ = std::vector<Slot>(2 * slots_.size());
        misses_ = 0;
        return find(left, m);
      }
      s.left_bits = bits;
      s.chain.m = m;
      s.chain.left.assign(1, left);
      s.chain.share.assign(1, left / double(m));
    }
    return s.chain;
  }
  // Makes step j of the chain available (j < m).
  static void extend(Chain& c, size_t j) {
    while (c.share.size() <= j) {
      const size_t k = c.share.size();
      const double left = c.left[k - 1] - c.share[k - 1];
      c.left.push_back(left);
      c.share.push_back(left / double(c.m - k));
    }
  }

 private:
  static constexpr size_t kMaxSlots = 4096;  // powers of two
  struct Slot {
    uint64_t left_bits = 0;
    Chain chain;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(64);
  size_t misses_ = 0;
};

}  // namespace aoc::sim
