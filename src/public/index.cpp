#include "public/index.h"

#include <algorithm>
#include <stdexcept>

#include "base/file_text.h"
#include "base/published_file.h"

namespace aoc::public_set {
namespace fs = std::filesystem;

const IndexEntry* Index::find(const std::string& package) const {
  for (const auto& e : entries)
    if (e.package == package) return &e;
  return nullptr;
}

void Index::put(IndexEntry e) {
  entries.erase(std::remove_if(entries.begin(), entries.end(), [&](const IndexEntry& x) { return x.package == e.package; }),
                entries.end());
  entries.push_back(std::move(e));
  std::sort(entries.begin(), entries.end(), [](const IndexEntry& a, const IndexEntry& b) { return a.package < b.package; });
}

// Every field by its name; a missing one reads as empty ("error" is empty for most entries).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IndexEntry, package, collection, commit, folder, split, status, error,
                                                inputs)

nlohmann::json to_json(const Index& index) { return {{"version", 1}, {"operators", index.entries}}; }

Index read_index(const fs::path& out_dir) {
  Index index;
  const fs::path file = out_dir / kIndexFile;
  if (!fs::exists(file)) return index;
  try {
    const auto doc = nlohmann::json::parse(aoc::base::read_text_or_throw(file));
    for (IndexEntry e : doc.at("operators")) {
      if (e.package.empty() || e.status.empty()) throw std::runtime_error("an entry without package or status");
      index.put(std::move(e));
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + " is not an index of a public set (" + e.what() +
                             "); remove it and export again (`ascendopt public export --force`)");
  }
  return index;
}

void write_index(const fs::path& out_dir, const Index& index) {
  std::string error;
  if (!aoc::base::publish_text(out_dir / kIndexFile, to_json(index).dump(2) + "\n", &error))
    throw std::runtime_error("cannot write " + (out_dir / kIndexFile).string() + ": " + error);
}

}  // namespace aoc::public_set
