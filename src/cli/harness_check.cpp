#include "cli/harness_check.h"

#include <unistd.h>

namespace aoc::cli {

std::string harness_missing(const std::filesystem::path& harness) {
  if (::access(harness.c_str(), X_OK) == 0) return "";
  return "the sandbox program " + harness.string() +
         " is missing; build the aoc-harness target (make) or point AOC_HARNESS at it";
}

}  // namespace aoc::cli
