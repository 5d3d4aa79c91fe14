// The flows of one bandwidth pool in the order its max-min fair share takes them: by effective
// cap, then by creation. The order is kept between fair shares and changed in place, one entry
// at a time, as flows join, leave or get a new cap: the keys are unique, so this is the order a
// stable sort of the whole pool by cap would give, without visiting the entries that did not
// change (a pool of the engine's benchmark holds about 60 flows and changes at most events).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace aoc::sim {

using CapKey = unsigned __int128;

// (effective cap, creation order) as one integer: doubles order like their bit patterns once
// negative ones (never produced) are flipped and positive ones moved above them, and -0.0 is
// folded into +0.0 since the two compare equal.
inline CapKey cap_key(double cap, uint64_t seq) {
  if (cap == 0) cap = 0.0;
  uint64_t bits = std::bit_cast<uint64_t>(cap);
  bits = (bits >> 63) ? ~bits : bits | (uint64_t{1} << 63);
  return (static_cast<CapKey>(bits) << 64) | seq;
}

struct CapEntry {
  CapKey key;     // cap_key(cap, the flow's creation order)
  double cap;     // the effective cap the flow had when the key was taken
  uint32_t index; // the flow's slot in Bandwidth (sim/bandwidth.h)
};

class PoolOrder {
 public:
  const std::vector<CapEntry>& entries() const { return entries_; }

  void insert(const CapEntry& e) { entries_.insert(entries_.begin() + std::ptrdiff_t(after(e.key)), e); }

  void erase(CapKey key) { entries_.erase(entries_.begin() + std::ptrdiff_t(at(key))); }

  // The entry with key `old_key` takes `e`'s key and cap and moves to its place; the entries
  // in between shift by one.
  void rekey(CapKey old_key, const CapEntry& e) {
    CapEntry* v = entries_.data();
    const size_t from = at(old_key);
    const size_t to = after(e.key);  // counted with the old entry still in place
    if (to > from + 1) {
      std::memmove(v + from, v + from + 1, (to - from - 1) * sizeof(CapEntry));
      v[to - 1] = e;
    } else if (to <= from) {
      std::memmove(v + to + 1, v + to, (from - to) * sizeof(CapEntry));
      v[to] = e;
    } else {
      v[from] = e;
    }
  }

 private:
  // First entry whose key is not below `key`.
  size_t at(CapKey key) const {
    return size_t(std::partition_point(entries_.begin(), entries_.end(),
                                       [key](const CapEntry& x) { return x.key < key; }) -
                  entries_.begin());
  }
  size_t after(CapKey key) const {
    return size_t(std::partition_point(entries_.begin(), entries_.end(),
                                       [key](const CapEntry& x) { return !(key < x.key); }) -
                  entries_.begin());
  }

  std::vector<CapEntry> entries_;
};

}  // namespace aoc::sim
