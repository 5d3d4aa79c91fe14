#include "rewind/hunk_groups.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace aoc::rewind {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_identifier(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) && std::all_of(s.begin(), s.end(), ident_char);
}

std::vector<size_t> sorted(std::vector<size_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The names a quoted identifier may be written as in the sources: itself and, for the accessors
// a tiling-data field declaration generates (set_tileNum, get_tileNum), the field.
std::vector<std::string> spellings(const std::string& id) {
  std::vector<std::string> out = {id};
  for (const char* prefix : {"set_", "get_"})
    if (id.rfind(prefix, 0) == 0 && id.size() > 4) out.push_back(id.substr(4));
  return out;
}

// The hunks outside `group` the message points at: those naming a quoted identifier, else the
// nearest one in the file of hunks[start], else the first one of another file.
std::vector<size_t> pulled_in(const std::string& message, size_t start, const std::vector<Hunk>& hunks,
                              const std::vector<size_t>& group) {
  const auto outside = [&](size_t j) { return std::find(group.begin(), group.end(), j) == group.end(); };
  std::vector<size_t> out;
  for (const auto& quoted : quoted_identifiers(message))
    for (const auto& id : spellings(quoted))
      for (size_t j = 0; j < hunks.size(); ++j)
        if (outside(j) && names_identifier(hunks[j], id) && std::find(out.begin(), out.end(), j) == out.end())
          out.push_back(j);
  if (!out.empty()) return out;
  size_t best = hunks.size(), best_distance = 0;
  for (size_t j = 0; j < hunks.size(); ++j) {
    if (!outside(j) || hunks[j].file != hunks[start].file) continue;
    const size_t a = hunks[j].exp_start, b = hunks[start].exp_start, d = a > b ? a - b : b - a;
    if (best == hunks.size() || d < best_distance) best = j, best_distance = d;
  }
  for (size_t j = 0; j < hunks.size() && best == hunks.size(); ++j)
    if (outside(j)) best = j;
  if (best != hunks.size()) out.push_back(best);
  return out;
}

}  // namespace

std::vector<std::string> quoted_identifiers(const std::string& message) {
  std::vector<std::string> out;
  for (size_t open = message.find('\''); open != std::string::npos;) {
    const size_t close = message.find('\'', open + 1);
    if (close == std::string::npos) break;
    const std::string s = message.substr(open + 1, close - open - 1);
    if (is_identifier(s) && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    open = message.find('\'', close + 1);
  }
  return out;
}

bool names_identifier(const Hunk& h, const std::string& id) {
  std::istringstream in(h.text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || (line[0] != '-' && line[0] != '+') || line.rfind("---", 0) == 0 || line.rfind("+++", 0) == 0)
      continue;
    for (size_t at = line.find(id, 1); at != std::string::npos; at = line.find(id, at + 1)) {
      const bool left = !ident_char(line[at - 1]);
      const bool right = at + id.size() == line.size() || !ident_char(line[at + id.size()]);
      if (left && right) return true;
    }
  }
  return false;
}

std::string group_label(const std::vector<size_t>& members) {
  std::string s;
  for (size_t i : members) s += (s.empty() ? "" : "+") + std::to_string(i);
  return s;
}

HunkGroup group_of(size_t start, const std::vector<Hunk>& hunks, const ParseCheck& parse, size_t max_members) {
  HunkGroup g;
  std::vector<size_t> group = {start};  // in the order the hunks joined
  std::string message = parse(group);
  while (!message.empty()) {
    const auto more = pulled_in(message, start, hunks, group);
    if (more.empty() || group.size() + more.size() > max_members) {
      g.members = sorted(group);
      g.failure = message;
      return g;
    }
    group.insert(group.end(), more.begin(), more.end());
    message = parse(sorted(group));
  }
  // Drop what the parser no longer needs, the last to join first.
  for (size_t k = group.size(); k-- > 1;) {
    std::vector<size_t> without = group;
    without.erase(without.begin() + long(k));
    if (parse(sorted(without)).empty()) group = without;
  }
  g.members = sorted(group);
  return g;
}

}  // namespace aoc::rewind
