// Deterministic random numbers for test inputs: xoshiro256** seeded through
// splitmix64, with our own mapping to doubles (std distributions differ across
// standard libraries, so inputs would not be reproducible from a seed).
#pragma once
#include <cstdint>

namespace aoc::base {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Mixes several identifiers (seed, case index, input index) into one stream seed.
inline uint64_t mix_seed(uint64_t a, uint64_t b, uint64_t c = 0) {
  uint64_t s = a;
  uint64_t h = splitmix64(s);
  s = h ^ b;
  h = splitmix64(s);
  s = h ^ c;
  return splitmix64(s);
}

class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1): the top 53 bits scaled by 2^-53, so every value is exact.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace aoc::base
