// `ascendopt public export [--manifest FILE|DIR] [--source NAME=DIR]... [--out DIR] [--force]
// [--json]`: the operators of public collections, pinned in manifests (data/public), exported
// from git, imported and completed into packages with an index; docs/public-set.md.
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/public_flags.h"
#include "public/git_source.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;

struct PublicExportArgs {
  std::string manifest;
  PublicFlags flags;
  bool no_clone = false, force = false, json = false;
};

void print_table(const aoc::public_set::Index& index) {
  for (const auto& e : index.entries) {
    std::string line = e.package;
    line.resize(std::max<size_t>(line.size() + 1, 24), ' ');
    line += e.split + (e.split == "test" ? "   " : "  ") + e.status;
    if (!e.error.empty()) line += ": " + e.error.substr(0, std::min<size_t>(e.error.find('\n'), 140));
    std::cout << line << "\n";
  }
}

int run_public_export(const PublicExportArgs& a) {
  try {
    aoc::public_set::ExportOptions o = export_options(a.flags);
    o.manifests = aoc::public_set::read_manifests(a.manifest.empty() ? aoc::public_set::default_manifest_dir()
                                                                      : fs::path(a.manifest));
    o.allow_clone = !a.no_clone;
    o.force = a.force;
    const auto s = export_public_set(o, a.flags);
    if (a.json) {
      std::cout << aoc::public_set::to_json(s.index).dump(2) << "\n";
    } else {
      print_table(s.index);
      std::cout << s.exported << " exported, " << s.skipped << " already exported, " << s.failed
                << " failed; index: " << (o.out / aoc::public_set::kIndexFile).string() << "\n";
    }
    return s.failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "ascendopt public export: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

void add_public_command(CLI::App& app) {
  CLI::App* pub = app.add_subcommand("public", "Public operator collections as a workload: export them into packages "
                                                "that bench and optimize take with --set (docs/public-set.md)");
  pub->require_subcommand(1);
  auto a = std::make_shared<PublicExportArgs>();
  CLI::App* cmd = pub->add_subcommand(
      "export", "Export every operator of the manifests from its collection's pinned commit, import it, apply its "
                "golden and cases, and write the packages and the index public-set.json");
  cmd->add_option("--manifest", a->manifest, "A manifest file or a folder of them (default: data/public of the project)")
      ->check(CLI::ExistingPath);
  add_public_flags(cmd, a->flags, true);
  cmd->add_flag("--no-clone", a->no_clone, "Never clone: a collection needs --source or an earlier clone");
  cmd->add_flag("--force", a->force, "Export again the operators already exported at the same commit");
  cmd->add_option("--cache-dir", a->flags.cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_flag("--json", a->json, "Print the index as JSON");
  cmd->callback([a] { exit_status() = run_public_export(*a); });
}

}  // namespace aoc::cli
