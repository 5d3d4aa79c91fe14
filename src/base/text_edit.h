// Edits of message text shared by the commands that rewrite paths in what they report.
#pragma once
#include <string>

namespace aoc::base {

// `s` with every occurrence of `from` replaced by `to` (none when `from` is empty).
inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

}  // namespace aoc::base
