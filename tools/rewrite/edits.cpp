#include "edits.h"

#include <algorithm>
#include <stdexcept>

namespace aoc::rewrite {

Edit replace(const Range& r, std::string text) { return Edit{r.file, r.begin, r.end, std::move(text)}; }

namespace {
const std::string& contents(const KernelModel& m, const std::string& file) {
  static const std::string empty;
  auto it = m.files.find(file);
  return it == m.files.end() ? empty : it->second;
}
}  // namespace

std::string indent_at(const KernelModel& m, const Range& at) {
  const std::string& s = contents(m, at.file);
  size_t ls = s.rfind('\n', at.begin == 0 ? 0 : at.begin - 1);
  ls = ls == std::string::npos ? 0 : ls + 1;
  size_t e = ls;
  while (e < s.size() && (s[e] == ' ' || s[e] == '\t')) ++e;
  return s.substr(ls, e - ls);
}

Edit erase_statement(const KernelModel& m, const Range& stmt) {
  const std::string& s = contents(m, stmt.file);
  size_t b = stmt.begin, e = stmt.end;
  size_t ls = b;
  while (ls > 0 && (s[ls - 1] == ' ' || s[ls - 1] == '\t')) --ls;
  size_t le = e;
  while (le < s.size() && (s[le] == ' ' || s[le] == '\t')) ++le;
  // A trailing line comment belongs to the statement.
  if (le + 1 < s.size() && s[le] == '/' && s[le + 1] == '/') le = s.find('\n', le) == std::string::npos ? s.size() : s.find('\n', le);
  if ((ls == 0 || s[ls - 1] == '\n') && (le == s.size() || s[le] == '\n')) {
    return Edit{stmt.file, static_cast<uint32_t>(ls), static_cast<uint32_t>(le < s.size() ? le + 1 : le), ""};
  }
  return Edit{stmt.file, static_cast<uint32_t>(b), static_cast<uint32_t>(e), ""};
}

Edit insert_line_before(const KernelModel& m, const Range& at, const std::string& text) {
  const std::string& s = contents(m, at.file);
  size_t ls = s.rfind('\n', at.begin == 0 ? 0 : at.begin - 1);
  ls = ls == std::string::npos ? 0 : ls + 1;
  return Edit{at.file, static_cast<uint32_t>(ls), static_cast<uint32_t>(ls), indent_at(m, at) + text + "\n"};
}

Edit insert_line_after(const KernelModel& m, const Range& at, const std::string& text) {
  const std::string& s = contents(m, at.file);
  size_t eol = s.find('\n', at.end);
  if (eol == std::string::npos) eol = s.size();
  return Edit{at.file, static_cast<uint32_t>(eol), static_cast<uint32_t>(eol), "\n" + indent_at(m, at) + text};
}

std::map<std::string, std::string> apply_edits(const KernelModel& m, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.file != b.file ? a.file < b.file : (a.begin != b.begin ? a.begin > b.begin : a.end > b.end);
  });
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < edits.size(); ++i) {
    const Edit& e = edits[i];
    if (i > 0 && edits[i - 1].file == e.file && e.end > edits[i - 1].begin)
      throw std::invalid_argument("overlapping edits in " + e.file);
    auto it = out.find(e.file);
    if (it == out.end()) it = out.emplace(e.file, contents(m, e.file)).first;
    if (e.end > it->second.size()) throw std::invalid_argument("edit past the end of " + e.file);
    it->second.replace(e.begin, e.end - e.begin, e.text);
  }
  return out;
}

}  // namespace aoc::rewrite
