// The L2 model's runs of lines by their first line: an ordered map from a key to a run's slot,
// kept as sorted leaves of at most kMaxLeaf keys under a sorted array of each leaf's first key.
// The model looks a run up, inserts one and drops one for almost every transfer, over some
// ten thousand runs for a large kernel; a std::map spent most of that time allocating,
// freeing and rebalancing nodes. Here a lookup is two binary searches over contiguous keys,
// and an insertion or erasure moves at most one leaf's entries. A run's key may grow in place
// (its first lines leave) because it never passes the next run's key.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace aoc::sim {

class RunIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint64_t kNoKey = UINT64_MAX;

  // Around a key: the entry with the greatest key not above it, and the next key above it.
  struct Around {
    uint32_t value = kNone;  // kNone: every key is above it
    uint64_t next = kNoKey;  // kNoKey: no key is above it
  };
  Around around(uint64_t key) const;

  void insert(uint64_t key, uint32_t value);  // key not present
  void erase(uint64_t key);                   // key present
  // Changes a present key to new_key, which must stay between its neighbours' keys.
  void rekey(uint64_t key, uint64_t new_key);

  size_t size() const;

 private:
  // Splitting at kMaxLeaf and merging neighbours below half of it keeps leaves between a
  // quarter and all of kMaxLeaf, so a leaf does not split again right after a merge.
  static constexpr size_t kMaxLeaf = 128;
  struct Leaf {
    std::vector<uint64_t> keys;
    std::vector<uint32_t> values;
  };

  size_t leaf_of(uint64_t key) const;  // the last leaf whose first key is not above key, else 0
  void split(size_t li);
  void merge_small(size_t li);
  void remove_leaf(size_t li);

  std::vector<uint64_t> firsts_;  // firsts_[i] == leaves_[i].keys.front(); no leaf is empty
  std::vector<Leaf> leaves_;
};

}  // namespace aoc::sim
