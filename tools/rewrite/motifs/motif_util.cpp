#include "motifs/motif_util.h"

#include <algorithm>
#include <cctype>

namespace aoc::rewrite {

bool is_api(const Call& c, const std::string& name) {
  return c.callee == name && c.object.empty() && (c.ns == "AscendC" || c.ns.empty());
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::optional<long long> int_value(const std::string& text) {
  std::string t = trim(text);
  // Strip a functional cast or braces: uint32_t(2), int32_t{2}, {2}.
  size_t open = t.find_first_of("({");
  if (open != std::string::npos && (t.back() == ')' || t.back() == '}')) t = trim(t.substr(open + 1, t.size() - open - 2));
  while (!t.empty() && std::isalpha(static_cast<unsigned char>(t.back()))) t.pop_back();  // 2U, 2UL
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
    return std::nullopt;
  return std::stoll(t);
}

std::string identifier_of(const std::string& text) {
  std::string t = trim(text);
  if (t.rfind("this->", 0) == 0) t = t.substr(6);
  if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) return "";
  for (char ch : t)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return "";
  return t;
}

std::vector<const Call*> buffer_num_knobs(const KernelModel& m) {
  std::vector<const Call*> out;
  for (const auto& c : m.calls)
    if ((c.callee == "Knob" || c.callee == "KnobRange") && m.is_host(c.range.file) && c.args.size() >= 2 &&
        trim(c.args[0].text) == "\"buffer_num\"")
      out.push_back(&c);
  return out;
}

Transform refuse(std::string why) {
  Transform t;
  t.refused = std::move(why);
  return t;
}

Detection not_applicable(std::string why) {
  Detection d;
  d.state = State::NotApplicable;
  d.reason = std::move(why);
  return d;
}

}  // namespace aoc::rewrite
