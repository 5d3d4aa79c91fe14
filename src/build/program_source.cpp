#include "build/program_source.h"

namespace aoc::build {

namespace {

// Length of the comment or literal starting at s[i], or 0 when none starts there.
size_t skipped_span(const std::string& s, size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    const size_t end = s.find('\n', i);
    return (end == std::string::npos ? s.size() : end) - i;
  }
  if (s.compare(i, 2, "/*") == 0) {
    const size_t end = s.find("*/", i + 2);
    return (end == std::string::npos ? s.size() : end + 2) - i;
  }
  if (s[i] == '"' || s[i] == '\'') {
    size_t j = i + 1;
    while (j < s.size() && s[j] != s[i]) j += s[j] == '\\' ? 2 : 1;
    return std::min(j + 1, s.size()) - i;
  }
  return 0;
}

int line_at(const std::string& s, size_t i) {
  int line = 1;
  for (size_t k = 0; k < i && k < s.size(); ++k) line += s[k] == '\n';
  return line;
}

}  // namespace

ProgramSource rewrite_launches(const std::string& s) {
  ProgramSource out;
  for (size_t i = 0; i < s.size();) {
    if (const size_t n = skipped_span(s, i); n > 0) {
      out.text.append(s, i, n);
      i += n;
      continue;
    }
    if (s.compare(i, 3, "<<<") != 0) {
      out.text += s[i++];
      continue;
    }
    // The configuration runs to the first `>>>` outside parentheses, comments and literals.
    size_t j = i + 3;
    int depth = 0;
    while (j < s.size() && !(depth == 0 && s.compare(j, 3, ">>>") == 0)) {
      if (const size_t n = skipped_span(s, j); n > 0) {
        j += n;
        continue;
      }
      depth += s[j] == '(' ? 1 : s[j] == ')' ? -1 : 0;
      ++j;
    }
    if (j >= s.size()) {
      out.error = "line " + std::to_string(line_at(s, i)) + ": a launch `<<<` without its closing `>>>`";
      out.text.append(s, i, std::string::npos);
      return out;
    }
    out.text += " * ::aoc::runtime::chevron(";
    out.text.append(s, i + 3, j - i - 3);
    out.text += ")";
    ++out.launches;
    i = j + 3;
  }
  return out;
}

}  // namespace aoc::build
