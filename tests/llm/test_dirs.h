// Scratch folders for the LLM tests, removed afterwards, reading files back, and a scan of
// the files a run wrote for a secret.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/file_text.h"
#include "scratch_dir.h"

namespace aoc::llm::testing {

// Named "aoc-llm-<tag>-..." so a leftover folder says which tests made it.
class ScratchDir : public aoc::testing::ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) : aoc::testing::ScratchDir("llm-" + tag) {}
};

// The bytes of `p` ("" when it cannot be read).
using aoc::base::read_text;

// Files under `root` whose bytes contain `needle`.
inline std::vector<std::string> files_containing(const std::filesystem::path& root, const std::string& needle) {
  std::vector<std::string> hits;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && read_text(e.path()).find(needle) != std::string::npos) hits.push_back(e.path().string());
  }
  return hits;
}

inline size_t count_files(const std::filesystem::path& root) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       it != std::filesystem::recursive_directory_iterator(); ++it)
    n += it->is_regular_file() ? 1 : 0;
  return n;
}

}  // namespace aoc::llm::testing
