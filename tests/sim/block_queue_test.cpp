// The engine's queue of blocks against a std::set of (time, block): the same earliest block after
// every step of long random sequences of new times, removals and pops, with times drawn from a
// few values so that many blocks tie.
#include "sim/block_queue.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "base/rng.h"

namespace {

using aoc::sim::BlockQueue;

void expect_same_as_set(uint64_t seed, uint32_t blocks, int steps) {
  BlockQueue queue(blocks);
  std::set<std::pair<double, uint32_t>> ref;
  std::vector<double> at(blocks, -1);  // -1: not queued
  aoc::base::Xoshiro256 rng(seed);
  for (int i = 0; i < steps; ++i) {
    const uint32_t b = uint32_t(rng.next() % blocks);
    const int op = int(rng.next() % 8);
    if (op < 5) {
      const double t = double(rng.next() % 16);
      if (at[b] >= 0) ref.erase({at[b], b});
      queue.set(b, t);
      ref.insert({t, b});
      at[b] = t;
    } else if (op < 7) {
      if (at[b] >= 0) ref.erase({at[b], b});
      queue.remove(b);
      at[b] = -1;
    } else if (!ref.empty()) {
      at[ref.begin()->second] = -1;
      ref.erase(ref.begin());
      queue.pop();
    }
    ASSERT_EQ(queue.empty(), ref.empty()) << "step " << i;
    if (ref.empty()) continue;
    ASSERT_EQ(queue.top(), ref.begin()->second) << "step " << i;
    ASSERT_EQ(queue.top_time(), ref.begin()->first) << "step " << i;
  }
}

TEST(BlockQueue, EarliestBlockAsASortedSet) {
  for (const uint32_t blocks : {1u, 2u, 3u, 7u, 48u, 100u, 1000u}) expect_same_as_set(blocks, blocks, 100000);
}

}  // namespace
