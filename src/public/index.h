// The index of an exported public set (<out>/public-set.json): one entry per operator with its
// collection, commit, folder, split and status, so that bench and optimize find the packages,
// list the ones that failed with their reason, and a new export skips what is done.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aoc::public_set {

inline constexpr const char* kIndexFile = "public-set.json";

struct IndexEntry {
  std::string package, collection, commit, folder, split;
  std::string status;  // "ok", "no-golden" (the package keeps the template golden), "failed"
  std::string error;   // why it failed, or what the package lacks
  std::string inputs;  // digest of the golden and cases applied (a changed golden redoes the package)
};

struct Index {
  std::vector<IndexEntry> entries;  // sorted by package
  const IndexEntry* find(const std::string& package) const;
  void put(IndexEntry e);  // replaces the entry of the same package
};

// An empty index when the file does not exist; throws std::runtime_error when it is unreadable.
Index read_index(const std::filesystem::path& out_dir);
void write_index(const std::filesystem::path& out_dir, const Index& index);
nlohmann::json to_json(const Index& index);

}  // namespace aoc::public_set
