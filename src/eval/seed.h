// The input seed of an evaluation when none is given.
#pragma once
#include <cstdint>

namespace aoc::eval {

// A seed from the clock and the process: fresh inputs per run unless one is given.
uint64_t fresh_seed();

}  // namespace aoc::eval
