#include "public/export.h"

#include <stdexcept>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "base/paths.h"
#include "base/text_edit.h"
#include "package/op_package.h"
#include "public/git_source.h"

namespace aoc::public_set {
namespace fs = std::filesystem;

namespace {

// What the package takes from outside the repository: the golden and the cases.
std::string inputs_digest(const OperatorEntry& op) {
  aoc::base::ContentHash h;
  for (const auto& p : {op.golden, op.cases}) h.add(fs::is_regular_file(p) ? aoc::base::read_text(p) : std::string("-"));
  return h.hex();
}

// The generated placeholder [[cases]] of an imported op.toml replaced by the cases file.
void replace_cases(const fs::path& op_toml, const fs::path& cases) {
  std::string text = aoc::base::read_text_or_throw(op_toml);
  const size_t at = text.rfind("[[cases]]", 0) == 0 ? 0 : text.find("\n[[cases]]");
  if (at != std::string::npos) text.erase(at == 0 ? 0 : at + 1);
  aoc::base::write_text(op_toml, text + aoc::base::read_text_or_throw(cases));
}

// Golden and cases applied to the imported package in `dir`; the entry's status says what it lacks.
void complete_package(const fs::path& dir, const OperatorEntry& op, IndexEntry& e) {
  if (fs::is_regular_file(op.cases)) replace_cases(dir / "op.toml", op.cases);
  if (fs::is_regular_file(op.golden)) {
    fs::copy_file(op.golden, dir / "golden.cpp", fs::copy_options::overwrite_existing);
  } else {
    e.status = "no-golden";
    e.error = "no golden: " + op.golden.string() + " does not exist, so the package keeps the template golden.cpp " +
              "written by import (write it there, or name one with `golden` in the manifest)";
  }
  aoc::package::load_op_package(dir);  // a cases file that does not fit the operator stops here
}

class Exporter {
 public:
  Exporter(const ExportOptions& opt, const aoc::package::HostBuild& build) : opt_(opt), build_(build) {}

  ExportSummary run() {
    fs::create_directories(opt_.out);
    s_.index = read_index(opt_.out);
    size_t total = 0, done = 0;
    for (const auto& m : opt_.manifests)
      for (const auto& op : m.operators) total += selected(opt_, op);
    for (const auto& m : opt_.manifests)
      for (const auto& op : m.operators)
        if (selected(opt_, op)) one(m, op, ++done, total);
    return s_;
  }

 private:
  void say(size_t i, size_t n, const std::string& text) const {
    if (opt_.progress) opt_.progress("[" + std::to_string(i) + "/" + std::to_string(n) + "] " + text);
  }

  // The collection's repository holding its commit, found once per collection.
  const fs::path& repository(const Manifest& m) {
    if (const auto it = repos_.find(m.name); it != repos_.end()) return it->second;
    const auto given = opt_.sources.find(m.name);
    const fs::path dir = given == opt_.sources.end() ? fs::path() : given->second;
    const fs::path repo = repository_for(m.name, m.url, dir, opt_.work / "sources", opt_.allow_clone);
    if (!has_commit(repo, m.commit) && !(dir.empty() && opt_.allow_clone && fetch(repo) && has_commit(repo, m.commit)))
      throw SourceError(m.file.string() + ": commit " + m.commit + " of collection " + m.name + " is not in " +
                        repo.string() + "; pin a commit of " + m.url + " in the manifest, or update that clone " +
                        "(git -C " + repo.string() + " fetch)");
    return repos_[m.name] = repo;
  }

  void one(const Manifest& m, const OperatorEntry& op, size_t i, size_t n) {
    const IndexEntry* old = s_.index.find(op.package);
    if (!opt_.force && is_current(opt_.out, old, m, op, !opt_.retry_failed)) {
      IndexEntry e = *old;
      e.split = op.split;  // a split changed in the manifest needs no new export
      s_.index.put(std::move(e));
      write_index(opt_.out, s_.index);
      ++s_.skipped;
      say(i, n, op.package + ": already exported at " + m.commit.substr(0, 12));
      return;
    }
    const fs::path& repo = repository(m);
    IndexEntry e{op.package, m.name, m.commit, op.folder, op.split, "ok", "", inputs_digest(op)};
    const fs::path pkg = opt_.out / op.package, partial = opt_.out / (op.package + ".partial");
    const fs::path raw = opt_.work / "exports" / op.package;
    std::error_code ec;
    fs::remove_all(partial, ec);
    try {
      export_folder(repo, m.commit, op.folder, raw);
      aoc::package::ImportOptions io;
      io.dir = raw;
      io.out = partial;
      io.force = true;
      aoc::package::import_operator(io, build_);
      complete_package(partial, op, e);
      fs::remove_all(pkg, ec);
      fs::rename(partial, pkg);
      ++s_.exported;
      say(i, n, op.package + ": exported" + (e.status == "ok" ? "" : " (" + e.status + ")"));
    } catch (const std::exception& x) {
      fs::remove_all(partial, ec);
      fs::remove_all(pkg, ec);
      e.status = "failed";
      // The scratch folders do not outlive the export: name the operator as the manifest does.
      e.error = aoc::base::replace_all(aoc::base::replace_all(x.what(), partial.string(), pkg.string()), raw.string(),
                                       m.name + ":" + op.folder);
      ++s_.failed;
      say(i, n, op.package + ": failed: " + e.error.substr(0, e.error.find('\n')));
    }
    fs::remove_all(raw, ec);
    s_.index.put(std::move(e));
    write_index(opt_.out, s_.index);
  }

  const ExportOptions& opt_;
  const aoc::package::HostBuild& build_;
  std::map<std::string, fs::path> repos_;
  ExportSummary s_;
};

}  // namespace

bool selected(const ExportOptions& opt, const OperatorEntry& op) {
  return (opt.split.empty() || op.split == opt.split) && (opt.package.empty() || op.package == opt.package);
}

fs::path default_public_dir() { return aoc::base::cache_dir() / "public"; }
fs::path default_work_dir() { return aoc::base::cache_dir() / "public-work"; }

bool is_current(const fs::path& out, const IndexEntry* e, const Manifest& m, const OperatorEntry& op,
                bool failed_counts) {
  if (e == nullptr || e->collection != m.name || e->commit != m.commit || e->folder != op.folder ||
      e->inputs != inputs_digest(op))
    return false;
  return e->status == "failed" ? failed_counts : fs::is_regular_file(out / op.package / "op.toml");
}

std::pair<std::string, fs::path> parse_source(const std::string& arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
    throw std::invalid_argument("--source " + arg + ": write NAME=DIR, the collection's name and a clone of its repository");
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

ExportSummary export_public_set(const ExportOptions& opt, const aoc::package::HostBuild& build) {
  for (const auto& [name, dir] : opt.sources) {
    bool known = false;
    for (const auto& m : opt.manifests) known = known || m.name == name;
    if (!known) throw SourceError("--source " + name + "=" + dir.string() + " names no collection of the manifests");
  }
  return Exporter(opt, build).run();
}

}  // namespace aoc::public_set
