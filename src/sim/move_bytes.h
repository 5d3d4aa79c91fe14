// The bytes every flow moves between two events: rem[i] -= rate[i] * dt for i < n, with the
// same IEEE multiplication and subtraction as that scalar expression (no fused multiply-add),
// several flows at a time.
#pragma once
#include <cstddef>

namespace aoc::sim {

void move_bytes(double* rem, const double* rate, size_t n, double dt);

}  // namespace aoc::sim
