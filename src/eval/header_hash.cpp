#include "eval/header_hash.h"

#include "eval/content_hash.h"

namespace aoc::eval {

std::string ascendc_header_hash(const std::filesystem::path& root) {
  const std::filesystem::path inc = root / "include" / "ascendc";
  return std::filesystem::is_directory(inc) ? tree_hash(inc) : "no-headers";
}

}  // namespace aoc::eval
