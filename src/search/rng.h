// The search's random numbers: the project's xoshiro256** (src/base/rng.h) with integer
// draws of our own, so a seed gives the same search on every standard library.
#pragma once
#include <cstdint>

#include "base/rng.h"

namespace aoc::search {

class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(aoc::base::mix_seed(seed, 0x7e11e5ull)) {}
  // Uniform in [0, n) by rejection (no modulo bias); n > 0.
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x = g_.next();
    while (x >= limit) x = g_.next();
    return x % n;
  }
  bool chance(double p) { return g_.unit() < p; }
  double unit() { return g_.unit(); }  // uniform in [0, 1)

 private:
  aoc::base::Xoshiro256 g_;
};

}  // namespace aoc::search
