// The identity of the AscendC headers a candidate compiles against: part of every candidate's
// hash and build-cache key, so results go stale when the library changes.
#pragma once
#include <filesystem>
#include <string>

namespace aoc::build {

// tree_hash of `root`/include/ascendc, or "no-headers" when the tree has none.
std::string ascendc_header_hash(const std::filesystem::path& root);

}  // namespace aoc::build
