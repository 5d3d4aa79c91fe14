#include "package/op_package.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include <toml++/toml.h>

#include "base/file_text.h"

namespace aoc::package {
namespace fs = std::filesystem;
namespace {

// Collects context (file, key path) so every error says where and what to do.
class Reader {
 public:
  explicit Reader(fs::path file) : file_(std::move(file)) {}

  [[noreturn]] void error(const std::string& key, const toml::node* at, const std::string& what,
                          const std::string& fix) const {
    std::ostringstream os;
    os << file_.string();
    if (at != nullptr && at->source().begin.line > 0) os << ":" << at->source().begin.line;
    os << ": key '" << key << "': " << what;
    if (!fix.empty()) os << "; " << fix;
    throw PackageError(os.str());
  }

  void reject_unknown(const toml::table& t, const std::string& where, std::initializer_list<const char*> known) const {
    for (const auto& [k, v] : t) {
      const std::string key(k.str());
      if (std::none_of(known.begin(), known.end(), [&](const char* n) { return key == n; })) {
        std::string list;
        for (const char* n : known) list += std::string(list.empty() ? "" : ", ") + n;
        error(where.empty() ? key : where + "." + key, &v, "unknown key",
              "known keys here are: " + list + " (see docs/op-package.md)");
      }
    }
  }

  std::string req_string(const toml::table& t, const std::string& where, const char* key) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) error(join(where, key), nullptr, "missing", std::string("add ") + key + " = \"...\"" + in(where));
    if (!n->is_string()) error(join(where, key), n, "must be a string", std::string("write ") + key + " = \"...\"");
    return n->as_string()->get();
  }

  std::string opt_string(const toml::table& t, const std::string& where, const char* key, std::string dflt) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return dflt;
    if (!n->is_string()) error(join(where, key), n, "must be a string", std::string("write ") + key + " = \"...\"");
    return n->as_string()->get();
  }

  double number(const toml::node& n, const std::string& key) const {
    if (auto i = n.value_exact<int64_t>()) return static_cast<double>(*i);
    if (auto d = n.value_exact<double>()) return *d;
    error(key, &n, "must be a number", "write e.g. " + key + " = 1.0");
  }

  const toml::array& req_array_of_tables(const toml::table& t, const char* key) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) error(key, nullptr, "missing", std::string("add at least one [[") + key + "]] table");
    if (!n->is_array_of_tables()) error(key, n, "must be an array of tables", std::string("write [[") + key + "]] sections");
    if (n->as_array()->empty()) error(key, n, "is empty", std::string("add at least one [[") + key + "]] table");
    return *n->as_array();
  }

  static std::string join(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
  }
  static std::string in(const std::string& where) { return where.empty() ? "" : " in " + where; }

 private:
  fs::path file_;
};

std::string camel_case(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char c : snake) {
    if (c == '_' || c == '-') { up = true; continue; }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

std::vector<ElemType> read_dtypes(const Reader& r, const toml::table& t, const std::string& where) {
  const toml::node* n = t.get("dtypes");
  if (n == nullptr) r.error(where + ".dtypes", nullptr, "missing", "add dtypes = [\"float16\", \"float32\"]");
  const toml::array* a = n->as_array();
  if (a == nullptr || a->empty()) r.error(where + ".dtypes", n, "must be a non-empty list of dtype names",
                                          "write dtypes = [\"float16\", \"float32\"]");
  std::vector<ElemType> out;
  for (const auto& e : *a) {
    auto s = e.value<std::string>();
    auto t2 = s ? parse_elem_type(*s) : std::nullopt;
    if (!t2) r.error(where + ".dtypes", &e, "unknown dtype '" + (s ? *s : std::string("<not a string>")) + "'",
                     "use one of " + known_elem_types());
    out.push_back(*t2);
  }
  return out;
}

TensorSpec read_tensor(const Reader& r, const toml::table& t, const std::string& where, bool output) {
  if (output) r.reject_unknown(t, where, {"name", "dtypes", "format", "shape_like", "shape"});
  else r.reject_unknown(t, where, {"name", "dtypes", "format"});
  TensorSpec s;
  s.name = r.req_string(t, where, "name");
  s.dtypes = read_dtypes(r, t, where);
  s.format = r.opt_string(t, where, "format", "ND");
  if (output) s.shape_like = r.opt_string(t, where, "shape_like", "");
  return s;
}

// An output's `shape` list (package/shape_expr.h): integers and expressions over the inputs
// and the int attributes.
std::vector<ShapeItem> read_output_shape(const Reader& r, const OpPackage& p, const toml::node& n, const std::string& key) {
  const toml::array* a = n.as_array();
  if (a == nullptr)
    r.error(key, &n, "must be a list of dimensions", "write shape = [\"x[:-1]\", 1] (docs/op-package.md, output shapes)");
  std::vector<std::string> inputs, int_attrs;
  for (const auto& in : p.inputs) inputs.push_back(in.name);
  for (const auto& at : p.attrs)
    if (at.type == "int") int_attrs.push_back(at.name);
  std::vector<ShapeItem> items;
  for (const auto& e : *a) {
    if (const auto v = e.value_exact<int64_t>()) {
      if (*v < 1) r.error(key, &e, "dimension " + std::to_string(*v) + " is below 1", "give a positive size");
      items.push_back(literal_shape_item(*v));
    } else if (const auto s = e.value_exact<std::string>()) {
      try {
        items.push_back(parse_shape_item(*s, inputs, int_attrs));
      } catch (const ShapeExprError& ex) {
        r.error(key, &e, ex.what(), "use inputs' dimensions (x[0], x[-1]), slices (x[:-1]), int attributes, + - * / %, "
                                    "min, max, ceildiv");
      }
    } else {
      r.error(key, &e, "a dimension is an integer or an expression in a string", "write e.g. 1 or \"x[0] / 2\"");
    }
  }
  return items;
}

AttrValue read_attr_value(const Reader& r, const toml::node& n, const std::string& type, const std::string& key) {
  auto bad = [&]() { r.error(key, &n, "value does not match attribute type '" + type + "'",
                             "give a " + type + " value"); };
  if (type == "int") { if (auto v = n.value_exact<int64_t>()) return *v; bad(); }
  if (type == "float") return r.number(n, key);
  if (type == "bool") { if (auto v = n.value_exact<bool>()) return *v; bad(); }
  if (type == "string") { if (auto v = n.value_exact<std::string>()) return *v; bad(); }
  const toml::array* a = n.as_array();
  if (a == nullptr) bad();
  if (type == "list_int") {
    std::vector<int64_t> out;
    for (const auto& e : *a) { auto v = e.value_exact<int64_t>(); if (!v) bad(); out.push_back(*v); }
    return out;
  }
  std::vector<double> out;
  for (const auto& e : *a) out.push_back(r.number(e, key));
  return out;
}

ValueRange read_values(const Reader& r, const toml::node& n, const std::string& where, ValueRange base) {
  const toml::table* t = n.as_table();
  if (t == nullptr) r.error(where, &n, "must be a table",
                            "write " + where + " = { dist = \"uniform\", low = -1.0, high = 1.0 }");
  r.reject_unknown(*t, where, {"dist", "low", "high", "value", "special"});
  ValueRange v = base;
  v.dist = r.opt_string(*t, where, "dist", v.dist);
  if (v.dist != "uniform" && v.dist != "constant" && v.dist != "zeros")
    r.error(where + ".dist", t->get("dist"), "unknown distribution '" + v.dist + "'", "use uniform, constant or zeros");
  if (const toml::node* x = t->get("low")) v.low = r.number(*x, where + ".low");
  if (const toml::node* x = t->get("high")) v.high = r.number(*x, where + ".high");
  if (const toml::node* x = t->get("value")) v.value = r.number(*x, where + ".value");
  if (v.dist == "uniform" && !(v.low < v.high))
    r.error(where, &n, "low must be below high", "write e.g. low = -1.0, high = 1.0");
  if (const toml::node* x = t->get("special")) {
    const toml::array* a = x->as_array();
    if (a == nullptr) r.error(where + ".special", x, "must be a list", "write special = [\"nan\", \"inf\", \"-inf\"]");
    v.special.clear();
    for (const auto& e : *a) {
      if (auto s = e.value_exact<std::string>()) {
        if (*s == "nan") v.special.push_back(std::numeric_limits<double>::quiet_NaN());
        else if (*s == "inf") v.special.push_back(std::numeric_limits<double>::infinity());
        else if (*s == "-inf") v.special.push_back(-std::numeric_limits<double>::infinity());
        else r.error(where + ".special", &e, "unknown special value '" + *s + "'", "use \"nan\", \"inf\", \"-inf\" or a number");
      } else {
        v.special.push_back(r.number(e, where + ".special"));
      }
    }
  }
  return v;
}

std::vector<int64_t> read_shape(const Reader& r, const toml::node& n, const std::string& key) {
  const toml::array* a = n.as_array();
  if (a == nullptr) r.error(key, &n, "must be a list of dimensions", "write e.g. " + key + " = [32, 1021]");
  std::vector<int64_t> dims;
  for (const auto& e : *a) {
    auto d = e.value_exact<int64_t>();
    if (!d || *d <= 0) r.error(key, &e, "dimensions must be positive integers", "write e.g. [32, 1021]");
    dims.push_back(*d);
  }
  return dims;
}

// `perf` and `source` of a case. The messages name the case as well as the key, since a
// package has dozens of cases and the index alone is hard to find.
void read_perf(const Reader& r, const toml::table& t, const std::string& where, CaseSpec& c) {
  const std::string which = "case '" + c.name + "'";
  if (const toml::node* n = t.get("perf")) {
    auto v = n->value_exact<bool>();
    if (!v) r.error(where + ".perf", n, which + ": must be true or false", "write perf = true for a performance case");
    c.perf = *v;
  }
  if (const toml::node* n = t.get("source")) {
    if (!n->is_string())
      r.error(where + ".source", n, which + ": must be a string",
              "write source = \"<model> <where the shape occurs>\", e.g. \"LLaMA-3-8B prefill 2048 tokens x "
              "intermediate 14336, MLP activation\"");
    c.source = n->as_string()->get();
    if (c.source.find_first_not_of(" \t") == std::string::npos)
      r.error(where + ".source", n, which + ": is empty", "say which model and layer the shape comes from");
  }
  if (c.perf && c.source.empty())
    r.error(where + ".source", &t, which + ": a performance case (perf = true) needs its provenance",
            "add source = \"<model> <where the shape occurs>\", e.g. \"BERT-base 32 x 512 tokens x hidden 768\"");
}

CaseSpec read_case(const Reader& r, const OpPackage& p, const toml::table& t, const std::string& where) {
  r.reject_unknown(t, where, {"name", "shape", "shapes", "attrs", "dtype", "variant", "values", "input_values",
                                 "perf", "source"});
  CaseSpec c;
  c.name = r.req_string(t, where, "name");
  std::vector<int64_t> common;
  if (const toml::node* n = t.get("shape")) common = read_shape(r, *n, where + ".shape");
  const toml::table* shapes = t.get("shapes") ? t.get("shapes")->as_table() : nullptr;
  if (t.get("shapes") && shapes == nullptr)
    r.error(where + ".shapes", t.get("shapes"), "must be a table", "write shapes = { x = [32, 1021] }");
  if (shapes != nullptr) {
    for (const auto& [k, v] : *shapes) {
      const std::string key(k.str());
      if (p.find_input(key) == nullptr)
        r.error(where + ".shapes." + key, &v, "no input named '" + key + "'", "use the names declared in [[inputs]]");
      c.shapes[key] = read_shape(r, v, where + ".shapes." + key);
    }
  }
  for (const auto& in : p.inputs) {
    if (c.shapes.count(in.name)) continue;
    if (common.empty())
      r.error(where + ".shapes." + in.name, &t, "no shape for input '" + in.name + "'",
              "add shape = [...] (all inputs) or shapes = { " + in.name + " = [...] }");
    c.shapes[in.name] = common;
  }
  if (const toml::node* n = t.get("attrs")) {
    const toml::table* a = n->as_table();
    if (a == nullptr) r.error(where + ".attrs", n, "must be a table", "write attrs = { epsilon = 1e-5 }");
    for (const auto& [k, v] : *a) {
      const std::string key(k.str());
      auto it = std::find_if(p.attrs.begin(), p.attrs.end(), [&](const AttrSpec& s) { return s.name == key; });
      if (it == p.attrs.end())
        r.error(where + ".attrs." + key, &v, "no attribute named '" + key + "'", "declare it in [[attrs]] first");
      c.attrs[key] = read_attr_value(r, v, it->type, where + ".attrs." + key);
    }
  }
  // An attribute without a default (a REQUIRED one of the OpDef) has no value to fall back on:
  // the kernel and the golden would each pick their own.
  for (const auto& a : p.attrs)
    if (!a.default_value && !c.attrs.count(a.name))
      r.error(where + ".attrs", &t, "case '" + c.name + "' gives no value for attribute '" + a.name + "', which has no default",
              "add attrs = { " + a.name + " = ... } to the case, or a default to its [[attrs]] entry");
  if (t.get("dtype") && t.get("variant"))
    r.error(where, &t, "both dtype and variant given", "keep one of them");
  if (const toml::node* n = t.get("variant")) {
    auto v = n->value_exact<int64_t>();
    if (!v || *v < 0 || static_cast<size_t>(*v) >= p.variant_count())
      r.error(where + ".variant", n, "out of range", "use 0.." + std::to_string(p.variant_count() - 1));
    c.variant = static_cast<size_t>(*v);
  } else if (const toml::node* n = t.get("dtype")) {
    auto s = n->value<std::string>();
    auto et = s ? parse_elem_type(*s) : std::nullopt;
    if (!et) r.error(where + ".dtype", n, "unknown dtype", "use one of " + known_elem_types());
    const auto& first = p.inputs.front().dtypes;
    auto it = std::find(first.begin(), first.end(), *et);
    if (it == first.end())
      r.error(where + ".dtype", n, "input '" + p.inputs.front().name + "' has no " + *s + " variant",
              "add it to inputs[0].dtypes or pick a declared dtype");
    c.variant = static_cast<size_t>(it - first.begin());
  }
  if (const toml::node* n = t.get("values")) c.values = read_values(r, *n, where + ".values", ValueRange{});
  if (const toml::node* n = t.get("input_values")) {
    const toml::table* iv = n->as_table();
    if (iv == nullptr) r.error(where + ".input_values", n, "must be a table", "write input_values = { gamma = { low = 0.5, high = 1.5 } }");
    for (const auto& [k, v] : *iv) {
      const std::string key(k.str());
      if (p.find_input(key) == nullptr)
        r.error(where + ".input_values." + key, &v, "no input named '" + key + "'", "use the names declared in [[inputs]]");
      c.input_values[key] = read_values(r, v, where + ".input_values." + key, c.values);
    }
  }
  read_perf(r, t, where, c);
  return c;
}

// [hidden]: generator parameters; ranges are [min, max] pairs.
std::pair<int64_t, int64_t> read_range(const Reader& r, const toml::table& t, const char* key,
                                       std::pair<int64_t, int64_t> dflt) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return dflt;
  const toml::array* a = n->as_array();
  const std::string where = std::string("hidden.") + key;
  std::optional<int64_t> lo, hi;
  if (a != nullptr && a->size() == 2) {
    lo = (*a)[0].value<int64_t>();
    hi = (*a)[1].value<int64_t>();
  }
  if (!lo || !hi || *lo < 1 || *lo > *hi)
    r.error(where, n, "must be [min, max] with 1 <= min <= max", "write e.g. " + std::string(key) + " = [1, 5]");
  return {*lo, *hi};
}

HiddenSpec read_hidden(const Reader& r, const OpPackage& p, const toml::node& n) {
  const toml::table* t = n.as_table();
  if (t == nullptr) r.error("hidden", &n, "must be a table", "write a [hidden] section");
  r.reject_unknown(*t, "hidden", {"count", "rank", "elements", "inner", "inner_multiple", "elements_multiple",
                                  "dtypes", "values", "input_values", "input_dims", "attrs"});
  HiddenSpec h;
  if (const toml::node* x = t->get("count")) {
    auto v = x->value_exact<int64_t>();
    if (!v || *v < 1) r.error("hidden.count", x, "must be a positive integer", "write count = 80");
    h.count = *v;
  }
  std::tie(h.rank_min, h.rank_max) = read_range(r, *t, "rank", {h.rank_min, h.rank_max});
  std::tie(h.elements_min, h.elements_max) = read_range(r, *t, "elements", {h.elements_min, h.elements_max});
  std::tie(h.inner_min, h.inner_max) = read_range(r, *t, "inner", {1, 0});
  if (const toml::node* x = t->get("inner_multiple")) {
    auto v = x->value_exact<int64_t>();
    if (!v || *v < 1 || (h.inner_max > 0 && *v > h.inner_max))
      r.error("hidden.inner_multiple", x, "must be a positive integer no larger than the inner range",
              "write inner_multiple = 2 (e.g. an operator that splits the last axis in halves)");
    h.inner_multiple = *v;
  }
  if (const toml::node* x = t->get("elements_multiple")) {
    auto v = x->value_exact<int64_t>();
    if (!v || *v < 1 || *v > h.elements_max)
      r.error("hidden.elements_multiple", x, "must be a positive integer no larger than the elements range",
              "write elements_multiple = 16 (e.g. an operator that splits the elements evenly, with no tail)");
    h.elements_multiple = *v;
  }
  if (const toml::node* x = t->get("dtypes")) {
    for (ElemType e : read_dtypes(r, *t, "hidden")) {
      const auto& first = p.inputs.front().dtypes;
      auto it = std::find(first.begin(), first.end(), e);
      if (it == first.end())
        r.error("hidden.dtypes", x, std::string("input '") + p.inputs.front().name + "' has no " + info(e).name +
                " variant", "list dtypes of inputs[0].dtypes");
      h.variants.push_back(static_cast<size_t>(it - first.begin()));
    }
  }
  const toml::node* vals = t->get("values");
  const toml::array* va = vals ? vals->as_array() : nullptr;
  if (vals != nullptr && (va == nullptr || va->empty()))
    r.error("hidden.values", vals, "must be a non-empty list", "write values = [\"medium\", \"special\"]");
  if (va == nullptr) {
    for (const char* name : {"small", "medium", "large", "special", "zeros"}) {
      h.value_names.push_back(name);
      h.values.push_back(*named_value_range(name));
    }
  } else {
    for (size_t i = 0; i < va->size(); ++i) {
      const toml::node& e = (*va)[i];
      if (auto s = e.value_exact<std::string>()) {
        auto v = named_value_range(*s);
        if (!v) r.error("hidden.values", &e, "unknown value range '" + *s + "'", "use " + known_value_range_names() +
                        " or a table { low = ..., high = ... }");
        h.value_names.push_back(*s);
        h.values.push_back(*v);
      } else {
        h.values.push_back(read_values(r, e, "hidden.values[" + std::to_string(i) + "]", ValueRange{}));
        h.value_names.push_back("values[" + std::to_string(i) + "]");
      }
    }
  }
  if (const toml::node* x = t->get("input_values")) {
    const toml::table* iv = x->as_table();
    if (iv == nullptr) r.error("hidden.input_values", x, "must be a table", "write input_values = { gamma = { low = 0.5, high = 1.5 } }");
    for (const auto& [k, v] : *iv) {
      const std::string key(k.str());
      if (p.find_input(key) == nullptr)
        r.error("hidden.input_values." + key, &v, "no input named '" + key + "'", "use the names declared in [[inputs]]");
      h.input_values[key] = read_values(r, v, "hidden.input_values." + key, ValueRange{});
    }
  }
  if (const toml::node* x = t->get("input_dims")) {
    const toml::table* id = x->as_table();
    if (id == nullptr) r.error("hidden.input_dims", x, "must be a table", "write input_dims = { gamma = [-1] }");
    for (const auto& [k, v] : *id) {
      const std::string key(k.str());
      const std::string where = "hidden.input_dims." + key;
      if (p.find_input(key) == nullptr || key == p.inputs.front().name)
        r.error(where, &v, "no input named '" + key + "' after the first", "name one of the other [[inputs]]");
      const toml::array* a = v.as_array();
      if (a == nullptr) r.error(where, &v, "must be a list of dimension indices of the first input",
                                "write e.g. " + key + " = [-1] (the last dimension)");
      std::vector<int64_t> idx;
      for (const auto& d : *a) {
        auto i = d.value_exact<int64_t>();
        if (!i) r.error(where, &d, "dimension indices are integers", "use 0, 1 ... or -1 for the last");
        idx.push_back(*i);
      }
      h.input_dims[key] = idx;
    }
  }
  if (const toml::node* x = t->get("attrs")) {
    const toml::table* at = x->as_table();
    if (at == nullptr) r.error("hidden.attrs", x, "must be a table", "write attrs = { epsilon = [1e-5, 1e-3] }");
    for (const auto& [k, v] : *at) {
      const std::string key(k.str());
      const std::string where = "hidden.attrs." + key;
      auto it = std::find_if(p.attrs.begin(), p.attrs.end(), [&](const AttrSpec& s) { return s.name == key; });
      if (it == p.attrs.end()) r.error(where, &v, "no attribute named '" + key + "'", "declare it in [[attrs]] first");
      const toml::array* a = v.as_array();
      if (a == nullptr || a->empty())
        r.error(where, &v, "must be a non-empty list of choices", "write " + key + " = [choice1, choice2]");
      for (const auto& e : *a) h.attrs[key].push_back(read_attr_value(r, e, it->type, where));
    }
  }
  for (const auto& a : p.attrs)
    if (!a.default_value && !h.attrs.count(a.name))
      r.error("hidden.attrs", t, "hidden cases draw no value for attribute '" + a.name + "', which has no default",
              "give its choices in [hidden]: attrs = { " + a.name + " = [...] }, or a default to its [[attrs]] entry");
  return h;
}

}  // namespace

std::optional<ValueRange> named_value_range(const std::string& name) {
  const double inf = std::numeric_limits<double>::infinity();
  auto uniform = [](double lo, double hi) { ValueRange v; v.low = lo; v.high = hi; return v; };
  if (name == "small") return uniform(-1e-3, 1e-3);
  if (name == "medium") return uniform(-1.0, 1.0);
  if (name == "large") return uniform(-1000.0, 1000.0);
  if (name == "positive") return uniform(0.01, 10.0);
  if (name == "asymmetric") return uniform(-0.5, 4.0);
  if (name == "boundary") {  // the fp16 extremes, representable in every float dtype
    ValueRange v = uniform(-65504.0, 65504.0);
    v.special = {65504.0, -65504.0};
    return v;
  }
  if (name == "special") {
    ValueRange v = uniform(-1.0, 1.0);
    v.special = {std::numeric_limits<double>::quiet_NaN(), inf, -inf};
    return v;
  }
  if (name == "zeros") { ValueRange v; v.dist = "zeros"; return v; }
  return std::nullopt;
}

std::string known_value_range_names() {
  return "small, medium, large, positive, asymmetric, boundary, special, zeros";
}

size_t OpPackage::variant_count() const { return inputs.empty() ? 0 : inputs.front().dtypes.size(); }

std::string OpPackage::variant_label(size_t v) const {
  std::set<std::string> names;
  for (const auto& i : inputs) names.insert(info(i.dtypes[v]).name);
  std::string out;
  for (const auto& i : inputs) {
    const std::string n = info(i.dtypes[v]).name;
    if (out.find(n) != std::string::npos) continue;
    out += (out.empty() ? "" : ",") + n;
  }
  return out;
}

const TensorSpec* OpPackage::find_input(const std::string& n) const {
  for (const auto& i : inputs)
    if (i.name == n) return &i;
  return nullptr;
}

std::vector<std::pair<std::string, AttrValue>> OpPackage::case_attrs(const CaseSpec& c) const {
  std::vector<std::pair<std::string, AttrValue>> out;
  for (const auto& a : attrs) {
    auto it = c.attrs.find(a.name);
    if (it != c.attrs.end()) out.emplace_back(a.name, it->second);
    else if (a.default_value) out.emplace_back(a.name, *a.default_value);
  }
  return out;
}

std::vector<fs::path> cpp_files(const fs::path& d) {
  std::vector<fs::path> out;
  if (!fs::is_directory(d)) return out;
  for (const auto& e : fs::directory_iterator(d))
    if (e.is_regular_file() && e.path().extension() == ".cpp") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

bool op_api_name(const fs::path& file) {
  const std::string stem = file.stem().string();
  return stem.rfind("aclnn_", 0) == 0 || (stem.size() > 3 && stem.compare(stem.size() - 3, 3, "_l0") == 0);
}

}  // namespace

bool is_op_api_source(const fs::path& file) {
  const std::string src = base::read_text(file);
  if (src.find("OP_ADD") != std::string::npos || src.find("IMPL_OP_OPTILING") != std::string::npos ||
      src.find("REGISTER_TILING_DATA_CLASS") != std::string::npos)
    return false;
  if (op_api_name(file)) return true;
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])", std::regex::multiline);
  for (std::sregex_iterator it(src.begin(), src.end(), include), end; it != end; ++it) {
    const fs::path target((*it)[1].str());
    const std::string first = target.begin()->string();
    if (first == "aclnn" || first == "aclnn_kernels" || first == "opdev" || first == "level0") return true;
    if (op_api_name(target)) return true;
  }
  return false;
}

std::vector<fs::path> host_cpp_files(const fs::path& folder) {
  std::vector<fs::path> out = cpp_files(folder);
  std::erase_if(out, [](const fs::path& f) { return is_op_api_source(f); });
  return out;
}

std::vector<fs::path> kernel_tiling_headers(const fs::path& host_folder, const std::string& package) {
  const fs::path named = host_folder / (package + "_tiling.h");
  if (fs::is_regular_file(named)) return {named};
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(host_folder, ec))
    if (e.is_regular_file() && e.path().extension() == ".h" &&
        e.path().filename().string().find("tiling") != std::string::npos &&
        base::read_text(e.path()).find("BEGIN_TILING_DATA_DEF") != std::string::npos)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> OpPackage::host_sources() const { return host_cpp_files(dir / "op_host"); }
std::vector<fs::path> OpPackage::kernel_sources() const { return cpp_files(dir / "op_kernel"); }

OpPackage load_op_package(const fs::path& dir_in) {
  OpPackage p;
  p.dir = fs::absolute(dir_in).lexically_normal();
  p.toml_path = p.dir / "op.toml";
  if (!fs::is_regular_file(p.toml_path))
    throw PackageError(p.toml_path.string() + ": not found; an operator package is a folder with op.toml, "
                       "op_host/, op_kernel/ and golden.cpp (see docs/op-package.md)");
  toml::table root;
  try {
    root = toml::parse_file(p.toml_path.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << p.toml_path.string() << ":" << e.source().begin.line << ": TOML syntax error: " << e.description();
    throw PackageError(os.str());
  }
  Reader r(p.toml_path);
  r.reject_unknown(root, "", {"name", "op_type", "category", "kernel", "inputs", "outputs", "attrs", "cases", "tolerance",
                          "hidden"});
  p.name = r.req_string(root, "", "name");
  p.op_type = r.opt_string(root, "", "op_type", camel_case(p.name));
  p.category = r.opt_string(root, "", "category", p.dir.parent_path().filename().string());
  p.kernel = r.opt_string(root, "", "kernel", p.name);

  const auto& ins = r.req_array_of_tables(root, "inputs");
  for (size_t i = 0; i < ins.size(); ++i)
    p.inputs.push_back(read_tensor(r, *ins[i].as_table(), "inputs[" + std::to_string(i) + "]", false));
  const auto& outs = r.req_array_of_tables(root, "outputs");
  for (size_t i = 0; i < outs.size(); ++i) {
    p.outputs.push_back(read_tensor(r, *outs[i].as_table(), "outputs[" + std::to_string(i) + "]", true));
    const auto& like = p.outputs.back().shape_like;
    if (!like.empty() && p.find_input(like) == nullptr)
      r.error("outputs[" + std::to_string(i) + "].shape_like", outs[i].as_table(), "no input named '" + like + "'",
              "name one of the [[inputs]]");
  }
  const size_t nv = p.variant_count();
  auto check_variants = [&](const std::vector<TensorSpec>& ts, const char* kind) {
    for (size_t i = 0; i < ts.size(); ++i)
      if (ts[i].dtypes.size() != nv)
        r.error(std::string(kind) + "[" + std::to_string(i) + "].dtypes", nullptr,
                "has " + std::to_string(ts[i].dtypes.size()) + " entries but inputs[0].dtypes has " + std::to_string(nv),
                "every dtypes list needs one entry per dtype variant (column i = variant i)");
  };
  check_variants(p.inputs, "inputs");
  check_variants(p.outputs, "outputs");

  if (const toml::node* n = root.get("attrs")) {
    if (!n->is_array_of_tables()) r.error("attrs", n, "must be an array of tables", "write [[attrs]] sections");
    const auto& as = *n->as_array();
    for (size_t i = 0; i < as.size(); ++i) {
      const std::string where = "attrs[" + std::to_string(i) + "]";
      const toml::table& t = *as[i].as_table();
      r.reject_unknown(t, where, {"name", "type", "default"});
      AttrSpec a;
      a.name = r.req_string(t, where, "name");
      a.type = r.req_string(t, where, "type");
      static const std::set<std::string> kTypes = {"int", "float", "bool", "string", "list_int", "list_float"};
      if (!kTypes.count(a.type))
        r.error(where + ".type", t.get("type"), "unknown attribute type '" + a.type + "'",
                "use int, float, bool, string, list_int or list_float");
      if (const toml::node* d = t.get("default")) a.default_value = read_attr_value(r, *d, a.type, where + ".default");
      p.attrs.push_back(std::move(a));
    }
  }
  // Output shapes name attributes, so they are read once the attributes are.
  for (size_t i = 0; i < outs.size(); ++i)
    if (const toml::node* n = outs[i].as_table()->get("shape")) {
      const std::string key = "outputs[" + std::to_string(i) + "].shape";
      if (!p.outputs[i].shape_like.empty())
        r.error(key, n, "both shape and shape_like given", "keep one of them");
      p.outputs[i].shape = read_output_shape(r, p, *n, key);
    }
  if (const toml::node* n = root.get("tolerance")) {
    const toml::table* t = n->as_table();
    if (t == nullptr) r.error("tolerance", n, "must be a table", "write [tolerance] relax = 2.0");
    r.reject_unknown(*t, "tolerance", {"relax", "integer_atol"});
    if (const toml::node* x = t->get("relax")) p.tolerance.relax = r.number(*x, "tolerance.relax");
    if (const toml::node* x = t->get("integer_atol")) {
      p.tolerance.integer_atol = r.number(*x, "tolerance.integer_atol");
      if (!(p.tolerance.integer_atol >= 0))
        r.error("tolerance.integer_atol", x, "must be >= 0", "give the largest accepted absolute difference");
    }
    if (!(p.tolerance.relax >= 1.0 && p.tolerance.relax <= 10.0))
      r.error("tolerance.relax", t->get("relax"), "must lie in [1, 10]",
              "an operator may relax its tolerance by at most 10x");
  }
  if (const toml::node* n = root.get("hidden")) p.hidden = read_hidden(r, p, *n);
  else p.hidden = read_hidden(r, p, toml::table{});
  const auto& cs = r.req_array_of_tables(root, "cases");
  std::set<std::string> names;
  for (size_t i = 0; i < cs.size(); ++i) {
    const std::string where = "cases[" + std::to_string(i) + "]";
    p.cases.push_back(read_case(r, p, *cs[i].as_table(), where));
    if (!names.insert(p.cases.back().name).second)
      r.error(where + ".name", cs[i].as_table(), "duplicate case name '" + p.cases.back().name + "'",
              "give every case a unique name");
    // Written output shapes must hold for every public case (an index outside a case's rank).
    for (size_t o = 0; o < p.outputs.size(); ++o)
      if (p.outputs[o].shape) try {
          (void)p.written_output_shape(p.cases.back(), o);
        } catch (const ShapeExprError& e) {
          r.error("outputs[" + std::to_string(o) + "].shape", outs[o].as_table()->get("shape"),
                  "case '" + p.cases.back().name + "': " + e.what(), "fix the expression or the case's shapes");
        }
  }
  return p;
}

std::vector<fs::path> find_op_packages(const fs::path& root) {
  std::vector<fs::path> out;
  if (fs::is_regular_file(root / "op.toml")) return {root};
  if (!fs::is_directory(root)) return out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->path().filename() == "op.toml" && it->is_regular_file(ec)) out.push_back(it->path().parent_path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string to_string(const AttrValue& v) {
  std::ostringstream os;
  std::visit([&](const auto& x) {
    using T = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<double>>) {
      os << "[";
      for (size_t i = 0; i < x.size(); ++i) os << (i ? "," : "") << x[i];
      os << "]";
    } else if constexpr (std::is_same_v<T, bool>) {
      os << (x ? "true" : "false");
    } else {
      os << x;
    }
  }, v);
  return os.str();
}

std::string shape_to_string(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace aoc::package
