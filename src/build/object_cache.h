// Compiled objects of relocatable translation units (op_host), kept across builds.
//
// A library is cached whole under a key of all its sources; a candidate whose kernel changed
// but whose op_host did not still misses it. The op_host unit is most of such a build's compile
// time, and its object does not depend on the folder it was compiled in once its folder paths
// are taken out of the key and out of __FILE__, so it is cached on its own, keyed by content:
// the unit's source and every file of its folder, the flags with the build's source folders
// written as placeholders, the compiler and the header tree. An object is stored only when the
// compiler's dependency list shows it read nothing but its own folder, the AscendC headers and
// system headers, all of which the key covers.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aoc::build {

// `text` with every occurrence of from[i] written as to[i], longest first (a folder that is a
// prefix of another, op/ and op/op_host, must not eat the longer one). An occurrence counts
// only where the name ends: "/a/op_host" is not replaced inside "/a/op_host2".
std::string substitute_folders(const std::string& text, const std::vector<std::string>& from,
                               const std::vector<std::string>& to);

// `flags` with every occurrence of dirs[i] written as "@dir<i>", so that the same sources in
// another folder give the same key.
std::string relocated(const std::string& flag, const std::vector<std::filesystem::path>& dirs);

// Compiler flags that make the object independent of the folders: __FILE__ and
// std::source_location name each folder by its last component.
std::vector<std::string> relocation_flags(const std::vector<std::filesystem::path>& dirs);

// The dependencies a make-style depfile lists (the target itself excluded).
std::vector<std::filesystem::path> depfile_dependencies(const std::string& text);

// True when every dependency lies in one of `allowed` folders (compared after normalising).
bool dependencies_within(const std::vector<std::filesystem::path>& deps,
                         const std::vector<std::filesystem::path>& allowed);

class ObjectCache {
 public:
  // Objects are stored in `dir`; `read_only` folders (the objects/ of shared caches,
  // base/paths.h) are searched first and never written.
  explicit ObjectCache(std::filesystem::path dir, std::vector<std::filesystem::path> read_only = {})
      : dir_(std::move(dir)), read_only_(std::move(read_only)) {}
  // The cached object for `key`, when there is one.
  std::optional<std::filesystem::path> find(const std::string& key) const;
  // Copies `object` into the cache under `key` (atomically: readers never see half a file).
  // Failure to store is not an error: the build already has its object.
  void store(const std::string& key, const std::filesystem::path& object) const;
  const std::filesystem::path& dir() const { return dir_; }
  const std::vector<std::filesystem::path>& read_only_dirs() const { return read_only_; }

 private:
  static std::filesystem::path path_in(const std::filesystem::path& dir, const std::string& key);
  std::filesystem::path dir_;
  std::vector<std::filesystem::path> read_only_;
};

}  // namespace aoc::build
