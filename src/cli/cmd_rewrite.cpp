// `ascendopt rewrite OP_DIR --apply M | --remove M [--out DIR] [--json]`: writes the kernel
// with one motif applied or removed as a candidate folder (docs/eval.md) and prints the diff.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/rewrite_target.h"
#include "rewrite/rewrite_candidate.h"

namespace aoc::cli {
namespace {

struct RewriteArgs {
  std::string dir;
  std::string apply, remove;
  std::string out;
  bool json = false;
};

int run(const RewriteArgs& a) {
  if (a.apply.empty() == a.remove.empty()) {
    std::cerr << "error: give exactly one of --apply MOTIF or --remove MOTIF (ascendopt motifs OP_DIR lists them)\n";
    return 2;
  }
  std::string error;
  auto c = load_rewrite_target(a.dir, error);
  if (!c) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  const std::string action = a.apply.empty() ? "remove" : "apply";
  const std::string motif = a.apply.empty() ? a.remove : a.apply;
  const std::string out = a.out.empty() ? c->package.name + "-" + action + "-" + motif : a.out;
  aoc::rewrite::RewriteOutcome r;
  try {
    r = aoc::rewrite::rewrite_candidate(*c, action, motif, out);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (a.json) {
    nlohmann::json j = {{"op", c->package.name}, {"action", action}, {"motif", motif}, {"done", r.done}};
    if (r.done) {
      j["out"] = out;
      j["changed"] = r.changed;
      j["diff"] = r.diff;
    } else {
      j["refused"] = r.refused;
    }
    std::cout << j.dump(2) << "\n";
  } else if (r.done) {
    std::cout << r.diff << "wrote candidate " << out << " (" << action << " " << motif << "); evaluate it with: ascendopt eval "
              << out << "\n";
  } else {
    std::cout << action << " " << motif << " refused: " << r.refused << "\n";
  }
  return r.done ? 0 : 3;
}

}  // namespace

void add_rewrite_command(CLI::App& app) {
  auto args = std::make_shared<RewriteArgs>();
  CLI::App* cmd = app.add_subcommand(
      "rewrite", "Apply or remove one optimization motif; writes a candidate folder and prints the diff (docs/motifs.md)");
  cmd->add_option("OP_DIR", args->dir, "Operator package, its expert/ folder, or a candidate folder")->required();
  cmd->add_option("--apply", args->apply, "Motif to apply");
  cmd->add_option("--remove", args->remove, "Motif to remove");
  cmd->add_option("--out", args->out, "New candidate folder (default: <op>-<action>-<motif>)");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
