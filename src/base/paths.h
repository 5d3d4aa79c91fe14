// Where the project's files are: the repository (include/ascendc, ops/, data/) and the cache
// folder that builds, results and the experience bank share across processes.
#pragma once
#include <filesystem>
#include <vector>

namespace aoc::base {

// $AOC_ROOT, else the source folder this program was configured from.
std::filesystem::path repo_root();

// $AOC_CACHE_DIR, else <build>/cache when the build folder exists, else
// $XDG_CACHE_HOME/ascendopt, ~/.cache/ascendopt or <tmp>/ascendopt-cache.
std::filesystem::path cache_dir();

// $AOC_SHARED_CACHE: read-only cache folders (':'-separated), each laid out as cache_dir() is,
// consulted before cache_dir() for compiled libraries and objects, case inputs and golden
// outputs, and API-check answers; nothing is ever written to them. A cluster's tasks can read
// one warm cache, copied to each node or mounted read-only, while each writes its own.
std::vector<std::filesystem::path> shared_caches();

}  // namespace aoc::base
