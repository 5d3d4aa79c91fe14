#include "base/paths.h"

#include <algorithm>
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

std::vector<fs::path> shared_caches() {
  std::vector<fs::path> out;
  const char* v = std::getenv("AOC_SHARED_CACHE");
  if (v == nullptr) return out;
  const std::string list(v);
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = std::min(list.find(':', start), list.size());
    if (end > start) out.push_back(fs::absolute(list.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

}  // namespace aoc::base
