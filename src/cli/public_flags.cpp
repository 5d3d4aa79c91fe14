#include "cli/public_flags.h"

#include <unistd.h>

#include <iostream>

#include "build/builder.h"
#include "build/host_library.h"

namespace aoc::cli {
namespace fs = std::filesystem;

void add_public_flags(CLI::App* cmd, PublicFlags& f, bool for_export) {
  cmd->add_option("--source", f.sources, "NAME=DIR: a clone (or bare clone) of collection NAME's repository "
                                         "(repeatable)");
  cmd->add_option(for_export ? "--out" : "--public-dir", f.public_dir,
                  "Exported packages and their index public-set.json (default: <cache dir>/public)");
  cmd->add_option(for_export ? "--work" : "--public-work", f.work,
                  "Clones (<work>/sources/NAME) and exports in progress (default: <cache dir>/public-work)");
  if (!for_export)
    cmd->add_flag("--clone", f.clone, "Clone a collection that has no --source and no clone yet (network)");
}

aoc::public_set::ExportOptions export_options(const PublicFlags& f) {
  aoc::public_set::ExportOptions o;
  for (const auto& s : f.sources) o.sources.insert(aoc::public_set::parse_source(s));
  if (!f.public_dir.empty()) o.out = fs::absolute(f.public_dir);
  if (!f.work.empty()) o.work = fs::absolute(f.work);
  o.allow_clone = f.clone;
  if (::isatty(STDERR_FILENO)) o.progress = [](const std::string& line) { std::cerr << line << std::endl; };
  return o;
}

namespace {

// The build that import reads the OpDef with, on a builder of the given cache folder.
class ImportBuild {
 public:
  explicit ImportBuild(const std::string& cache_dir) : builder_(options(cache_dir)), build_(aoc::build::host_library_build(builder_)) {}
  const aoc::package::HostBuild& get() const { return build_; }

 private:
  static aoc::build::BuilderOptions options(const std::string& cache_dir) {
    aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
    if (!cache_dir.empty()) bo.cache_dir = cache_dir;
    return bo;
  }
  aoc::build::Builder builder_;
  aoc::package::HostBuild build_;
};

}  // namespace

aoc::public_set::ExportSummary export_public_set(const aoc::public_set::ExportOptions& o, const PublicFlags& f) {
  const ImportBuild build(f.cache_dir);
  return aoc::public_set::export_public_set(o, build.get());
}

aoc::public_set::ResolvedSet resolve_public_set(const std::string& spec, const PublicFlags& f, const std::string& package) {
  const ImportBuild build(f.cache_dir);
  aoc::public_set::ExportOptions o = export_options(f);
  o.package = package;
  auto r = aoc::public_set::resolve_set(aoc::public_set::parse_set(spec), o, build.get());
  for (const auto& s : r.skipped)
    std::cerr << "skipped " << s.package << " (" << spec << "): " << s.reason.substr(0, s.reason.find('\n')) << "\n";
  return r;
}

}  // namespace aoc::cli
