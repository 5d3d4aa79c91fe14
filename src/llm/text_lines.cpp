#include "llm/text_lines.h"

#include <cctype>

namespace aoc::llm {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string rtrim(const std::string& s) {
  size_t e = s.size();
  while (e > 0 && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(0, e);
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from < s.size()) {
    size_t nl = s.find('\n', from);
    if (nl == std::string::npos) nl = s.size();
    std::string line = s.substr(from, nl - from);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    from = nl + 1;
  }
  return out;
}

std::string join_lines(const std::vector<std::string>& lines, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i) {
    if (i > from) s += '\n';
    s += lines[i];
  }
  return s;
}

}  // namespace aoc::llm
