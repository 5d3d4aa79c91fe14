#include "base/content_hash.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace aoc::base {
namespace fs = std::filesystem;

ContentHash::ContentHash() : state_(XXH3_createState()) { XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_)); }
ContentHash::~ContentHash() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

ContentHash& ContentHash::add(std::string_view bytes) {
  const uint64_t n = bytes.size();
  XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), &n, sizeof(n));
  XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), bytes.data(), bytes.size());
  return *this;
}

ContentHash& ContentHash::add_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return add(data);
}

std::string ContentHash::hex() const {
  const XXH128_hash_t h = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

std::string tree_hash(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ContentHash h;
  for (const auto& f : files) {
    h.add(fs::relative(f, root).generic_string());
    h.add_file(f);
  }
  return h.hex();
}

}  // namespace aoc::base
