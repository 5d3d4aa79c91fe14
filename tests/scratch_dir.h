// A scratch folder under the system temp folder, removed with everything in it afterwards.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace aoc::testing {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    std::string t = (std::filesystem::temp_directory_path() / ("aoc-" + tag + "-XXXXXX")).string();
    if (mkdtemp(t.data()) != nullptr) path_ = t;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace aoc::testing
