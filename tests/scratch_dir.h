// A scratch folder under the system temp folder, removed with everything in it afterwards.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <fstream>
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

// A scratch folder holding an op.toml with the given text: a package for tests of the loader.
class ScratchPackage : public ScratchDir {
 public:
  explicit ScratchPackage(const std::string& op_toml) : ScratchDir("package") {
    std::ofstream(path() / "op.toml") << op_toml;
  }
  const std::filesystem::path& dir() const { return path(); }
};

// A scratch folder of this test process, removed with everything in it when the process exits:
// for tests that make many named folders and files.
inline const std::filesystem::path& process_scratch_dir() {
  static const ScratchDir dir("test");
  return dir.path();
}

// `name` inside process_scratch_dir(), created empty.
inline std::filesystem::path fresh_scratch_subdir(const std::string& name) {
  const std::filesystem::path d = process_scratch_dir() / name;
  std::error_code ec;
  std::filesystem::remove_all(d, ec);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace aoc::testing
