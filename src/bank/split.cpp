#include "bank/split.h"

#include <stdexcept>

#include <toml++/toml.h>

#include "base/paths.h"

namespace aoc::bank {
namespace fs = std::filesystem;

fs::path default_split_file() { return aoc::base::repo_root() / "data" / "bank_split.toml"; }
fs::path suite_root() { return aoc::base::repo_root() / "ops"; }

Split read_split(const fs::path& file) {
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw std::runtime_error("cannot read the split " + file.string() + ": " + std::string(e.description()));
  }
  Split s;
  for (const char* key : {"train", "test"}) {
    const toml::array* list = t[key].as_array();
    if (!list) throw std::runtime_error(file.string() + " has no list `" + key + "` of package paths");
    auto& out = std::string(key) == "train" ? s.train : s.test;
    for (const auto& v : *list) {
      const auto str = v.value<std::string>();
      if (!str) throw std::runtime_error(file.string() + ": `" + key + "` must hold strings (package paths under ops/)");
      out.push_back(*str);
    }
  }
  return s;
}

}  // namespace aoc::bank
