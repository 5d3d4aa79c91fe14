// The L2 model's index of runs against a std::map: the same answers to every lookup over long
// random sequences of insertions, erasures and keys moved up, large enough to split, merge and
// empty many leaves.
#include "sim/run_index.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>

#include "base/rng.h"

namespace {

using aoc::sim::RunIndex;

void expect_same_around(const RunIndex& index, const std::map<uint64_t, uint32_t>& ref, uint64_t key) {
  auto after = ref.upper_bound(key);
  const RunIndex::Around a = index.around(key);
  EXPECT_EQ(a.value, after == ref.begin() ? RunIndex::kNone : std::prev(after)->second) << "key " << key;
  EXPECT_EQ(a.next, after == ref.end() ? RunIndex::kNoKey : after->first) << "key " << key;
}

// Keys drawn from [0, key_range); each step inserts, erases or moves a key up: 7 of 8 steps
// insert while the index fills, 1 of 8 while it drains.
void expect_same_as_map(uint64_t seed, uint64_t key_range, int fill_steps, int drain_steps) {
  RunIndex index;
  std::map<uint64_t, uint32_t> ref;
  aoc::base::Xoshiro256 rng(seed);
  for (int i = 0; i < fill_steps + drain_steps; ++i) {
    const int grow = i < fill_steps ? 7 : 1;
    const uint64_t key = rng.next() % key_range;
    const int op = int(rng.next() % 8);
    auto at = ref.lower_bound(key);
    if (op < grow) {
      if (at == ref.end() || at->first != key) {
        index.insert(key, uint32_t(i));
        ref.emplace(key, uint32_t(i));
      }
    } else if (at != ref.end()) {
      auto next = std::next(at);
      const uint64_t room = (next == ref.end() ? key_range : next->first) - at->first;
      if (op % 2 == 0 || room < 2) {
        index.erase(at->first);
        ref.erase(at);
      } else {  // the run's first lines leave: its key moves up, short of the next key
        const uint64_t moved = at->first + 1 + rng.next() % (room - 1);
        const uint32_t value = at->second;
        index.rekey(at->first, moved);
        ref.erase(at);
        ref.emplace(moved, value);
      }
    }
    ASSERT_EQ(index.size(), ref.size()) << "step " << i;
    expect_same_around(index, ref, key);
    expect_same_around(index, ref, rng.next() % key_range);
    if (!ref.empty()) expect_same_around(index, ref, ref.begin()->first);
  }
}

TEST(RunIndex, MatchesMapOverSparseKeys) { expect_same_as_map(1, 1 << 20, 20000, 80000); }

TEST(RunIndex, MatchesMapOverDenseKeys) { expect_same_as_map(2, 3000, 20000, 80000); }

TEST(RunIndex, EmptyIndexHasNothingAround) {
  RunIndex index;
  EXPECT_EQ(index.around(5).value, RunIndex::kNone);
  EXPECT_EQ(index.around(5).next, RunIndex::kNoKey);
  index.insert(5, 7);
  index.erase(5);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.around(5).value, RunIndex::kNone);
}

}  // namespace
