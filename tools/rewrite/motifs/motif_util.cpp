#include "motifs/motif_util.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

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

std::optional<long long> constant_at(const KernelModel& m, const Call& at, const std::string& text) {
  if (auto n = int_value(text)) return n;
  const Var* v = m.var_seen_by(at, identifier_of(text));
  if (v && (v->is_constexpr || v->is_const)) return int_value(v->init);
  return std::nullopt;
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

namespace {

// The variable a tensor expression is taken from: `x`, `this->x`, `xBuf` of `xBuf.Get<T>()`,
// `x` of `x[8]`. Empty for anything else.
std::string root_of(const std::string& expr) {
  std::string t = trim(expr);
  if (t.rfind("this->", 0) == 0) t = t.substr(6);
  size_t e = 0;
  while (e < t.size() && is_ident_char(t[e])) ++e;
  const std::string rest = t.substr(e);
  if (e == 0 || !(rest.empty() || rest[0] == '.' || rest[0] == '[')) return "";
  return t.substr(0, e);
}

// The storage the tensor `name` of function `f` lives in, as the names of the members (or
// of locals with no tensor initializer) it is finally taken from: a local
// `t = buf.Get<T>()` lives in `buf`, a parameter in whatever every caller passes for it.
// Nullopt when that cannot be told (an argument that is not a plain name, a call too deep).
std::optional<std::set<std::string>> storage_of(const KernelModel& m, const Function& f, const std::string& name,
                                                int depth) {
  if (depth > 8) return std::nullopt;
  const auto param = std::find(f.params.begin(), f.params.end(), name);
  if (param != f.params.end()) {
    const size_t i = static_cast<size_t>(param - f.params.begin());
    std::set<std::string> out;
    bool called = false;
    for (const auto& x : m.calls) {
      if (x.callee != f.name || x.klass != f.klass || !(x.object.empty() || trim(x.object) == "this")) continue;
      called = true;
      if (x.args.size() <= i) return std::nullopt;
      const std::string r = root_of(x.args[i].text);
      const Function* caller = m.find_function(x.function, x.klass);
      if (r.empty() || !caller) return std::nullopt;
      const auto s = storage_of(m, *caller, r, depth + 1);
      if (!s) return std::nullopt;
      out.insert(s->begin(), s->end());
    }
    if (!called) out.insert("parameter " + name);
    return out;
  }
  for (const auto& v : m.vars) {
    if (v.name != name || v.is_member || v.function != f.name || v.klass != f.klass || v.init.empty()) continue;
    const std::string r = root_of(v.init);
    if (r.empty() || r == name) break;
    return storage_of(m, f, r, depth + 1);
  }
  return std::set<std::string>{name};
}

}  // namespace

bool may_alias(const KernelModel& m, const Call& c, const std::string& d, const std::string& a) {
  const Function* f = m.find_function(c.function, c.klass);
  if (!f) return true;
  const std::string dn = identifier_of(d), an = identifier_of(a);
  if (dn.empty() || an.empty()) return true;
  const auto ds = storage_of(m, *f, dn, 0), as = storage_of(m, *f, an, 0);
  if (!ds || !as) return true;
  return std::any_of(ds->begin(), ds->end(), [&](const std::string& s) { return as->count(s) > 0; });
}

std::string regex_escaped(const std::string& text) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\-])");
  return std::regex_replace(text, special, R"(\$&)");
}

std::string file_line(const Range& r) { return r.file.substr(r.file.rfind('/') + 1) + ":" + std::to_string(r.line); }

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
