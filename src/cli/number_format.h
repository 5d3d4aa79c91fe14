// How the command tables print numbers.
#pragma once
#include <optional>
#include <string>

namespace aoc::cli {

// `v` with `digits` decimals ("1.250"), or "-" when there is no value.
std::string fixed(std::optional<double> v, int digits = 2);

}  // namespace aoc::cli
