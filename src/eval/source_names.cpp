#include "eval/source_names.h"

#include <cctype>
#include <filesystem>

#include "build/object_cache.h"

namespace aoc::eval {

namespace {

bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
}

// `text` with "name/" written as "folder/" where it starts a path (not inside a longer one).
std::string replace_relative(const std::string& text, const std::string& name, const std::string& folder) {
  if (name.empty()) return text;
  const std::string from = name + "/";
  std::string s = text;
  for (size_t at = s.find(from); at != std::string::npos;) {
    if (at > 0 && path_char(s[at - 1])) {
      at = s.find(from, at + 1);
      continue;
    }
    const std::string to = folder + "/";
    s.replace(at, from.size(), to);
    at = s.find(from, at + to.size());
  }
  return s;
}

}  // namespace

std::string SourceNames::operator()(const std::string& text) const {
  std::string s = build::substitute_folders(text, staged, original);
  // The names relocation_flags gives the folders (their last component), as in op_host/add.cpp.
  for (size_t i = 0; i < staged.size() && i < original.size(); ++i)
    s = replace_relative(s, std::filesystem::path(staged[i]).filename().string(), original[i]);
  return s;
}

}  // namespace aoc::eval
