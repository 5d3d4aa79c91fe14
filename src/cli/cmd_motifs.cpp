// `ascendopt motifs OP_DIR [--motif M] [--json]`: each optimization motif's state in an
// operator's kernel (present / applicable / not applicable) with file:line and the reason.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/rewrite_target.h"
#include "rewrite/motif_states.h"
#include "rewrite/rewrite_tool.h"

namespace aoc::cli {
namespace {

struct MotifsArgs {
  std::string dir;
  std::string motif;
  bool json = false;
};

int run(const MotifsArgs& a) {
  std::string error;
  auto c = load_rewrite_target(a.dir, error);
  if (!c) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  std::vector<aoc::rewrite::MotifState> states;
  try {
    states = aoc::rewrite::detect_motifs(*c, a.motif);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (a.json) {
    std::cout << nlohmann::json{{"op", c->package.name}, {"dir", a.dir}, {"motifs", aoc::rewrite::to_json(states)}}.dump(2)
              << "\n";
    return 0;
  }
  std::cout << c->package.name << " (" << a.dir << ")\n";
  for (const auto& s : states) {
    std::cout << "  " << s.motif << std::string(s.motif.size() < 18 ? 18 - s.motif.size() : 1, ' ') << aoc::rewrite::to_string(s.state);
    if (!s.reason.empty()) std::cout << ": " << s.reason;
    std::cout << "\n";
    for (const auto& p : s.places) std::cout << "      " << p.file << ":" << p.line << "\n";
  }
  return 0;
}

}  // namespace

void add_motifs_command(CLI::App& app) {
  auto args = std::make_shared<MotifsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "motifs", "Which optimization motifs an operator's kernel carries, could carry, or cannot (docs/motifs.md)");
  cmd->add_option("OP_DIR", args->dir, "Operator package, its expert/ folder, or a candidate folder")->required();
  cmd->add_option("--motif", args->motif, "Only this motif");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
