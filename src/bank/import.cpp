#include "bank/import.h"

#include <fstream>
#include <sstream>

namespace aoc::bank {
namespace {

std::string type_name(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "a list";
  return "an object";
}

class Reader {
 public:
  Reader(const nlohmann::json& o, size_t index) : o_(o), index_(index) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw EntryImportError("entry " + std::to_string(index_) + ": field \"" + field + "\" " + what);
  }
  std::string required_string(const char* field) const {
    if (!o_.contains(field)) fail(field, "is missing (a string is required)");
    return string_at(field);
  }
  std::string optional_string(const char* field, const std::string& fallback) const {
    return o_.contains(field) && !o_[field].is_null() ? string_at(field) : fallback;
  }
  const nlohmann::json* optional(const char* field, nlohmann::json::value_t type, const char* what) const {
    if (!o_.contains(field) || o_[field].is_null()) return nullptr;
    const auto& v = o_[field];
    const bool ok = type == nlohmann::json::value_t::number_float ? v.is_number() : v.type() == type;
    if (!ok) fail(field, std::string("must be ") + what + ", not " + type_name(v));
    return &v;
  }

 private:
  std::string string_at(const char* field) const {
    const auto& v = o_[field];
    if (!v.is_string()) fail(field, "must be a string, not " + type_name(v));
    return v.get<std::string>();
  }
  const nlohmann::json& o_;
  size_t index_;
};

Entry read_entry(const nlohmann::json& o, size_t index) {
  if (!o.is_object())
    throw EntryImportError("entry " + std::to_string(index) + " is " + type_name(o) +
                      ", not an object with title, description, bottleneck and diff");
  Reader r(o, index);
  using T = nlohmann::json::value_t;
  Entry e;
  e.title = r.required_string("title");
  e.description = r.required_string("description");
  e.bottleneck = r.required_string("bottleneck");
  e.diff = r.required_string("diff");
  e.kind = r.optional_string("kind", kText);
  if (e.kind != kPositive && e.kind != kNegative && e.kind != kText)
    r.fail("kind", "is \"" + e.kind + "\"; use positive, negative or text");
  e.motif = r.optional_string("motif", kUnclassified);
  if (e.motif.empty()) e.motif = kUnclassified;
  e.op = r.optional_string("op", "");
  e.category = r.optional_string("category", "");
  if (const auto* s = r.optional("source", T::object, "an object {path, hash}")) {
    Reader sr(*s, index);
    e.source_path = sr.optional_string("path", "");
    e.source_hash = sr.optional_string("hash", "");
  }
  if (const auto* g = r.optional("geomean", T::number_float, "a number")) e.geomean = g->get<double>();
  if (const auto* cs = r.optional("cases", T::array, "a list of {name, optimized_us, rewound_us}")) {
    for (size_t i = 0; i < cs->size(); ++i) {
      const auto& c = (*cs)[i];
      const std::string field = "cases[" + std::to_string(i) + "]";
      if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("optimized_us") ||
          !c["optimized_us"].is_number() || !c.contains("rewound_us") || !c["rewound_us"].is_number())
        r.fail(field, "must be an object with a string name and numbers optimized_us and rewound_us");
      e.cases.push_back({c["name"].get<std::string>(), c["optimized_us"].get<double>(), c["rewound_us"].get<double>()});
    }
  }
  if (const auto* p = r.optional("profile", T::object, "an object")) e.profile = profile_from_json(*p);
  if (const auto* c = r.optional("context", T::object, "an object")) e.context = context_from_json(*c);
  if (const auto* p = r.optional("provenance", T::object, "an object")) e.provenance = *p;
  if (e.kind != kText && !e.geomean)
    r.fail("geomean", "is missing: a " + e.kind + " entry is a measurement (use kind text for advice)");
  return e;
}

}  // namespace

std::vector<Entry> entries_from_json(const nlohmann::json& j) {
  const nlohmann::json* list = &j;
  if (j.is_object() && j.contains("entries")) list = &j["entries"];
  if (!list->is_array())
    throw EntryImportError("the JSON must be a list of entries or an object {\"entries\": [...]}, not " + type_name(*list));
  std::vector<Entry> out;
  for (size_t i = 0; i < list->size(); ++i) out.push_back(read_entry((*list)[i], i));
  return out;
}

std::vector<Entry> read_import_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw EntryImportError("cannot read " + file.string() + "; check the path");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(ss.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw EntryImportError(file.string() + " is not valid JSON (" + e.what() + "); nothing was imported");
  }
  try {
    return entries_from_json(j);
  } catch (const EntryImportError& e) {
    throw EntryImportError(file.string() + ": " + e.what() + "; nothing was imported");
  }
}

}  // namespace aoc::bank
