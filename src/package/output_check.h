// The precision screen's result for one output of a case, and the byte output buffers are
// pre-filled with before a kernel runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "package/compare.h"

namespace aoc::package {

// Byte every output buffer is pre-filled with: NaN for every float type, so an
// element the kernel never writes fails the comparison.
constexpr unsigned char kPoisonByte = 0xFF;

struct OutputCheck {
  std::string name;
  std::vector<int64_t> shape;
  CompareResult cmp;
};

}  // namespace aoc::package
