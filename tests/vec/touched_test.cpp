// The span of elements an instruction's operand touches is computed from a few repeats; it
// must equal the span over every enabled lane for any mask, counter, stride and repeat count.
#include <gtest/gtest.h>

#include <cstdint>

#include "kernel_operator.h"

namespace {

uint64_t next(uint64_t& s) {  // splitmix64: the same sequence on every platform
  s += 0x9e3779b97f4a7c15ull;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

aoc::vec::Span every_lane(const aoc::vec::Iter& it, const aoc::vec::Layout& lay) {
  aoc::vec::Span s;
  aoc::vec::for_each_lane(it, [&](uint32_t r, uint32_t l) { s.add(lay.index(r, l)); });
  return s;
}

}  // namespace

TEST(VecTouched, EqualsTheSpanOfEveryEnabledLane) {
  uint64_t seed = 20261202;
  const uint32_t lane_counts[] = {64, 128, 256};
  for (int n = 0; n < 20000; ++n) {
    aoc::vec::Iter it;
    it.lanes = lane_counts[next(seed) % 3];
    it.repeats = static_cast<uint32_t>(next(seed) % 9);
    it.counter = next(seed) % 2 == 0;
    if (it.counter) {
      // Counts that fill the repeats, fall short of them, or (hand-built iterations) exceed them.
      it.count = next(seed) % (uint64_t(it.lanes) * (it.repeats + 2) + 1);
    } else {
      if (it.lanes > 128) it.lanes = 128;  // the mask register holds 128 lanes
      const int kind = static_cast<int>(next(seed) % 4);
      it.mask_lo = kind == 0 ? ~0ull : kind == 1 ? (1ull << (next(seed) % 64)) : next(seed);
      it.mask_hi = it.lanes > 64 ? (kind == 0 ? ~0ull : next(seed) % 3 == 0 ? 0 : next(seed)) : 0;
    }
    aoc::vec::Layout lay;
    lay.blk_lanes = it.lanes / 8;
    lay.blk_step = (next(seed) % 10) * lay.blk_lanes;
    lay.rep_step = (next(seed) % 20) * 8;
    lay.lane_step = next(seed) % 5 == 0 ? 0 : 1;
    const aoc::vec::Span want = every_lane(it, lay), got = aoc::vec::touched(it, lay);
    ASSERT_EQ(got.empty(), want.empty()) << n;
    if (want.empty()) continue;
    ASSERT_EQ(got.lo, want.lo) << "case " << n << " lanes " << it.lanes << " repeats " << it.repeats;
    ASSERT_EQ(got.hi, want.hi) << "case " << n << " lanes " << it.lanes << " repeats " << it.repeats;
  }
}
