#include "base/paths.h"

#include <cstdlib>
#include <string>

#ifndef AOC_SOURCE_DIR
#define AOC_SOURCE_DIR "."
#endif
#ifndef AOC_BINARY_DIR
#define AOC_BINARY_DIR ""
#endif

namespace aoc::base {
namespace fs = std::filesystem;

fs::path repo_root() {
  const char* root = std::getenv("AOC_ROOT");
  return root != nullptr ? fs::path(root) : fs::path(AOC_SOURCE_DIR);
}

fs::path cache_dir() {
  if (const char* c = std::getenv("AOC_CACHE_DIR"); c != nullptr && *c) return c;
  if (std::string(AOC_BINARY_DIR).size() > 0 && fs::is_directory(AOC_BINARY_DIR)) return fs::path(AOC_BINARY_DIR) / "cache";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x) return fs::path(x) / "ascendopt";
  if (const char* h = std::getenv("HOME"); h != nullptr) return fs::path(h) / ".cache" / "ascendopt";
  return fs::temp_directory_path() / "ascendopt-cache";
}

}  // namespace aoc::base
