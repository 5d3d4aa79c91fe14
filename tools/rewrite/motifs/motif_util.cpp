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

bool may_alias(const KernelModel& m, const Call& c, const std::string& d, const std::string& a) {
  const Function* f = m.find_function(c.function, c.klass);
  if (!f) return true;
  const std::string dn = identifier_of(d), an = identifier_of(a);
  if (dn.empty() || an.empty()) return true;
  auto index = [&](const std::string& n) {
    for (size_t i = 0; i < f->params.size(); ++i)
      if (f->params[i] == n) return static_cast<long>(i);
    return -1L;
  };
  const long di = index(dn), ai = index(an);
  if (di < 0 || ai < 0) return false;
  for (const auto& x : m.calls) {
    if (x.callee != f->name || x.klass != f->klass || !(x.object.empty() || trim(x.object) == "this")) continue;
    if (x.args.size() <= static_cast<size_t>(std::max(di, ai))) return true;
    // The variable an argument is taken from: `x`, `this->x`, `xBuf` of `xBuf.Get<T>()`, `x` of `x[8]`.
    auto root = [](const std::string& arg) {
      std::string t = trim(arg);
      if (t.rfind("this->", 0) == 0) t = t.substr(6);
      size_t e = 0;
      while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
      const std::string rest = t.substr(e);
      if (e == 0 || !(rest.empty() || rest[0] == '.' || rest[0] == '[')) return std::string();
      return t.substr(0, e);
    };
    const std::string xd = root(x.args[di].text), xa = root(x.args[ai].text);
    if (xd.empty() || xa.empty() || xd == xa) return true;
  }
  return false;
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
