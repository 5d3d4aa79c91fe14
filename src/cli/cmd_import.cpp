// `ascendopt import DIR [--out OUT] [--force] [--json]`: an msopgen operator folder becomes an
// operator package (op.toml generated from its OpDef, golden.cpp template); docs/compat.md.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "build/builder.h"
#include "build/host_library.h"
#include "cli/commands.h"
#include "package/op_import.h"

namespace aoc::cli {

namespace {

struct ImportArgs {
  std::string dir, out, cache_dir;
  bool force = false, json = false;
};

int run_import(const ImportArgs& a) {
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::build::Builder builder(bo);
  aoc::package::ImportOptions opt;
  opt.dir = a.dir;
  opt.out = a.out;
  opt.force = a.force;
  try {
    const aoc::package::ImportResult r = aoc::package::import_operator(opt, aoc::build::host_library_build(builder));
    if (a.json) {
      std::cout << nlohmann::json{{"ok", true},           {"name", r.name},
                                  {"op_type", r.op_type}, {"kernel", r.kernel},
                                  {"op_toml", r.op_toml.string()}, {"golden", r.golden.string()},
                                  {"notes", r.notes}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << "imported " << r.op_type << " (kernel " << r.kernel << ") as package '" << r.name << "'\n"
                << "  wrote " << r.op_toml.string() << "\n  wrote " << r.golden.string()
                << " (a template: write the reference, then run `ascendopt run "
                << r.op_toml.parent_path().string() << "`)\n";
      for (const auto& n : r.notes) std::cout << "  note: " << n << "\n";
    }
    return 0;
  } catch (const std::exception& e) {
    if (a.json) std::cout << nlohmann::json{{"ok", false}, {"error", e.what()}}.dump(2) << "\n";
    else std::cerr << "ascendopt import: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

void add_import_command(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Turn an msopgen operator folder (op_host/ with the OpDef, op_kernel/) into an operator package: "
                "op.toml from the OpDef, golden.cpp as a template to complete");
  cmd->add_option("dir", args->dir, "Operator folder with op_host/ and op_kernel/")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--out", args->out, "Write the package here (a copy of op_host/ and op_kernel/ plus the two files); "
                                      "default: into DIR itself");
  cmd->add_flag("--force", args->force, "Overwrite an existing op.toml / golden.cpp");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_flag("--json", args->json, "Print the result as JSON");
  cmd->callback([args] { exit_status() = run_import(*args); });
}

}  // namespace aoc::cli
