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

nlohmann::json to_json(const Index& index) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& e : index.entries) {
    nlohmann::json j = {{"package", e.package}, {"collection", e.collection}, {"commit", e.commit},
                        {"folder", e.folder},   {"split", e.split},           {"status", e.status},
                        {"inputs", e.inputs}};
    if (!e.error.empty()) j["error"] = e.error;
    ops.push_back(std::move(j));
  }
  return {{"version", 1}, {"operators", ops}};
}

Index read_index(const fs::path& out_dir) {
  Index index;
  const fs::path file = out_dir / kIndexFile;
  if (!fs::exists(file)) return index;
  try {
    const auto j = nlohmann::json::parse(aoc::base::read_text_or_throw(file));
    for (const auto& o : j.at("operators")) {
      IndexEntry e;
      e.package = o.at("package");
      e.collection = o.at("collection");
      e.commit = o.at("commit");
      e.folder = o.at("folder");
      e.split = o.at("split");
      e.status = o.at("status");
      e.error = o.value("error", "");
      e.inputs = o.value("inputs", "");
      index.put(std::move(e));
    }
  } catch (const nlohmann::json::exception& e) {
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
