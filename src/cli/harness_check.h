// Every command that evaluates runs its cases in the aoc-harness program: it checks for it
// before anything is built, so a missing program is one clear message rather than a failed case.
#pragma once
#include <filesystem>
#include <string>

namespace aoc::cli {

// "" when `harness` is an executable file, else what is wrong and what to do.
std::string harness_missing(const std::filesystem::path& harness);

}  // namespace aoc::cli
