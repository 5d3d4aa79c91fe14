#include "package/case_toml.h"

#include <cmath>
#include <sstream>

#include <toml++/toml.h>

namespace aoc::package {

namespace {

// `key = value` as toml++ writes it (quoting, floats, inline tables).
std::string line(const std::string& key, toml::node&& value) {
  toml::table t;
  t.insert(key, std::move(value));
  std::ostringstream os;
  os << t;
  return os.str() + "\n";
}

toml::array int_list(const std::vector<int64_t>& v) {
  toml::array a;
  for (int64_t x : v) a.push_back(x);
  return a;
}

toml::table value_range(const ValueRange& v) {
  toml::table t;
  t.is_inline(true);
  t.insert("dist", v.dist);
  if (v.dist == "uniform") {
    t.insert("low", v.low);
    t.insert("high", v.high);
  } else if (v.dist == "constant") {
    t.insert("value", v.value);
  }
  if (!v.special.empty()) {
    toml::array s;
    for (double x : v.special) {
      if (std::isnan(x)) s.push_back("nan");
      else if (std::isinf(x)) s.push_back(x > 0 ? "inf" : "-inf");
      else s.push_back(x);
    }
    t.insert("special", std::move(s));
  }
  return t;
}

void insert_attr(toml::table& t, const std::string& name, const AttrValue& v) {
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<double>>) {
          toml::array a;
          for (auto e : x) a.push_back(e);
          t.insert(name, std::move(a));
        } else {
          t.insert(name, x);
        }
      },
      v);
}

}  // namespace

std::string case_entry_toml(const OpPackage& p, const CaseSpec& c) {
  std::string out = "[[cases]]\n" + line("name", toml::value<std::string>(c.name));
  toml::table shapes;
  shapes.is_inline(true);
  for (const auto& in : p.inputs)
    if (auto it = c.shapes.find(in.name); it != c.shapes.end()) shapes.insert(in.name, int_list(it->second));
  out += line("shapes", std::move(shapes));
  out += line("variant", toml::value<int64_t>(static_cast<int64_t>(c.variant)));
  if (!c.attrs.empty()) {
    toml::table attrs;
    attrs.is_inline(true);
    for (const auto& [name, v] : c.attrs) insert_attr(attrs, name, v);
    out += line("attrs", std::move(attrs));
  }
  out += line("values", value_range(c.values));
  if (!c.input_values.empty()) {
    toml::table per;
    per.is_inline(true);
    for (const auto& [name, v] : c.input_values) per.insert(name, value_range(v));
    out += line("input_values", std::move(per));
  }
  return out;
}

}  // namespace aoc::package
