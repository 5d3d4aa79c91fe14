// Content hashing for the build cache (xxHash XXH3-128): a key changes whenever a
// source, a flag, the compiler or any header under include/ascendc changes.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace aoc::base {

class ContentHash {
 public:
  ContentHash();
  ~ContentHash();
  ContentHash(const ContentHash&) = delete;
  ContentHash& operator=(const ContentHash&) = delete;

  // Each piece is length-prefixed, so ("ab","c") and ("a","bc") hash differently.
  ContentHash& add(std::string_view bytes);
  // Adds the file's content (not its path or timestamp); throws if unreadable.
  ContentHash& add_file(const std::filesystem::path& p);
  std::string hex() const;  // 32 hex digits

 private:
  void* state_;
};

// Hash of every file under `root` (relative path + content), recomputed per call.
std::string tree_hash(const std::filesystem::path& root);

}  // namespace aoc::base
