// Where the project's files are: the repository (include/ascendc, ops/, data/) and the cache
// folder that builds, results and the experience bank share across processes.
#pragma once
#include <filesystem>

namespace aoc::base {

// $AOC_ROOT, else the source folder this program was configured from.
std::filesystem::path repo_root();

// $AOC_CACHE_DIR, else <build>/cache when the build folder exists, else
// $XDG_CACHE_HOME/ascendopt, ~/.cache/ascendopt or <tmp>/ascendopt-cache.
std::filesystem::path cache_dir();

}  // namespace aoc::base
