#include "build/header_hash.h"

#include "base/content_hash.h"

namespace aoc::build {

std::string ascendc_header_hash(const std::filesystem::path& root) {
  const std::filesystem::path inc = root / "include" / "ascendc";
  return std::filesystem::is_directory(inc) ? base::tree_hash(inc) : "no-headers";
}

}  // namespace aoc::build
