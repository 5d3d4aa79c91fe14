#include "public/manifest.h"

#include <algorithm>
#include <map>
#include <set>

#include <toml++/toml.h>

#include "base/paths.h"

namespace aoc::public_set {
namespace fs = std::filesystem;

namespace {

const std::set<std::string> kTopKeys = {"collection", "operator"};
const std::set<std::string> kCollectionKeys = {"name", "url", "commit"};
const std::set<std::string> kOperatorKeys = {"folder", "package", "split", "golden", "cases"};

std::string key_list(const std::set<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

[[noreturn]] void fail(const fs::path& file, const std::string& where, const std::string& what) {
  throw ManifestError(file.string() + ": " + where + ": " + what + " (format: docs/public-set.md)");
}

void check_keys(const fs::path& file, const std::string& where, const toml::table& t, const std::set<std::string>& keys) {
  for (const auto& [k, v] : t)
    if (!keys.count(std::string(k.str())))
      fail(file, where, "unknown key `" + std::string(k.str()) + "`; the keys are " + key_list(keys));
}

std::string string_key(const fs::path& file, const std::string& where, const toml::table& t, const char* key,
                       bool required) {
  const toml::node* n = t.get(key);
  if (n == nullptr) {
    if (required) fail(file, where, std::string("no `") + key + "`; it is required");
    return "";
  }
  const auto s = n->value<std::string>();
  if (!s || s->empty()) fail(file, where, std::string("`") + key + "` must be a non-empty string");
  return *s;
}

bool is_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  }) && s != "." && s != "..";
}

bool is_commit(const std::string& s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

fs::path relative_to(const fs::path& base, const std::string& p) {
  const fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal();
}

void read_collection(const fs::path& file, const toml::table& root, Manifest& m) {
  const toml::table* c = root["collection"].as_table();
  if (c == nullptr) fail(file, "[collection]", "missing; write a [collection] table with name, url and commit");
  check_keys(file, "[collection]", *c, kCollectionKeys);
  m.name = string_key(file, "[collection]", *c, "name", true);
  m.url = string_key(file, "[collection]", *c, "url", true);
  m.commit = string_key(file, "[collection]", *c, "commit", true);
  if (!is_name(m.name))
    fail(file, "[collection]", "name `" + m.name + "` must be letters, digits, '_', '-' or '.' (it names a folder)");
  if (!is_commit(m.commit))
    fail(file, "[collection]", "commit `" + m.commit + "` is not a full commit id; write its 40 hex digits "
                               "(`git rev-parse COMMIT` prints them)");
  std::transform(m.commit.begin(), m.commit.end(), m.commit.begin(), [](char c) { return std::tolower(c); });
}

OperatorEntry read_operator(const fs::path& file, const toml::table& t, size_t index) {
  std::string where = "[[operator]] #" + std::to_string(index + 1);
  OperatorEntry e;
  e.folder = string_key(file, where, t, "folder", true);
  where += " (folder " + e.folder + ")";
  check_keys(file, where, t, kOperatorKeys);
  while (e.folder.size() > 1 && e.folder.back() == '/') e.folder.pop_back();
  if (fs::path(e.folder).is_absolute() || e.folder.find("..") != std::string::npos)
    fail(file, where, "`folder` must be a path inside the repository, relative to its root");
  e.package = string_key(file, where, t, "package", false);
  if (e.package.empty()) e.package = fs::path(e.folder).filename().string();
  if (!is_name(e.package))
    fail(file, where, "package `" + e.package + "` must be letters, digits, '_', '-' or '.'; give a `package` name");
  if (t.get("split") == nullptr) fail(file, where, "no `split`; write split = \"train\" or split = \"test\"");
  e.split = string_key(file, where, t, "split", true);
  if (e.split != "train" && e.split != "test")
    fail(file, where, "split `" + e.split + "` must be \"train\" or \"test\"");
  const fs::path goldens = aoc::base::repo_root() / "data" / "compat" / "goldens";
  const fs::path here = file.parent_path();
  const std::string golden = string_key(file, where, t, "golden", false);
  const std::string cases = string_key(file, where, t, "cases", false);
  e.golden_given = !golden.empty();
  e.cases_given = !cases.empty();
  e.golden = e.golden_given ? relative_to(here, golden) : goldens / (e.package + ".cpp");
  e.cases = e.cases_given ? relative_to(here, cases) : goldens / (e.package + ".cases.toml");
  if (e.golden_given && !fs::is_regular_file(e.golden))
    fail(file, where, "golden " + e.golden.string() + " does not exist (a relative path is taken from the manifest's folder)");
  if (e.cases_given && !fs::is_regular_file(e.cases))
    fail(file, where, "cases " + e.cases.string() + " does not exist (a relative path is taken from the manifest's folder)");
  return e;
}

}  // namespace

fs::path default_manifest_dir() { return aoc::base::repo_root() / "data" / "public"; }

Manifest read_manifest(const fs::path& file) {
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw ManifestError("cannot read the manifest " + file.string() + ": " + std::string(e.description()));
  }
  Manifest m;
  m.file = file;
  check_keys(file, "top level", root, kTopKeys);
  read_collection(file, root, m);
  const toml::array* ops = root["operator"].as_array();
  if (ops == nullptr || ops->empty()) fail(file, "[[operator]]", "none; list the operators as [[operator]] entries");
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < ops->size(); ++i) {
    const toml::table* t = (*ops)[i].as_table();
    if (t == nullptr) fail(file, "[[operator]] #" + std::to_string(i + 1), "must be a table");
    OperatorEntry e = read_operator(file, *t, i);
    if (const auto it = seen.find(e.package); it != seen.end())
      fail(file, "[[operator]] #" + std::to_string(i + 1) + " (folder " + e.folder + ")",
           "package `" + e.package + "` is already the package of [[operator]] #" + std::to_string(it->second + 1) +
               "; give one of them another `package` name");
    seen[e.package] = i;
    m.operators.push_back(std::move(e));
  }
  return m;
}

std::vector<Manifest> read_manifests(const fs::path& file_or_dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(file_or_dir)) {
    for (const auto& f : fs::directory_iterator(file_or_dir))
      if (f.is_regular_file() && f.path().extension() == ".toml") files.push_back(f.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw ManifestError(file_or_dir.string() + " holds no manifest (*.toml); see docs/public-set.md");
  } else if (fs::is_regular_file(file_or_dir)) {
    files.push_back(file_or_dir);
  } else {
    throw ManifestError(file_or_dir.string() + ": no such manifest file or folder");
  }
  std::vector<Manifest> out;
  std::map<std::string, fs::path> packages, collections;
  for (const auto& f : files) {
    Manifest m = read_manifest(f);
    if (const auto it = collections.find(m.name); it != collections.end())
      throw ManifestError(f.string() + ": collection `" + m.name + "` is also the collection of " + it->second.string() +
                          "; give each manifest its own name");
    collections[m.name] = f;
    for (const auto& e : m.operators) {
      if (const auto it = packages.find(e.package); it != packages.end())
        throw ManifestError(f.string() + ": package `" + e.package + "` (folder " + e.folder + ") is also a package of " +
                            it->second.string() + "; packages share one folder, give one another `package` name");
      packages[e.package] = f;
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace aoc::public_set
