#include "eval/seed.h"

#include <unistd.h>

#include <chrono>

#include "base/rng.h"

namespace aoc::eval {

uint64_t fresh_seed() {
  const auto now = static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  return aoc::base::mix_seed(now, static_cast<uint64_t>(::getpid()));
}

}  // namespace aoc::eval
