// `ascendopt rewrite OP_DIR --apply M | --remove M [--out DIR] [--json]`: writes the kernel
// with one motif applied or removed as a candidate folder (docs/eval.md) and prints the diff.
// `--guided [-k K] [--bank FILE]`: the experience bank picks the motifs (docs/bank.md).
// `--remove-all [--keep M,...]`: every removable motif taken out, one after another.
#include <unistd.h>

#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "bank/guided.h"
#include "cli/bank_cli.h"
#include "cli/commands.h"
#include "cli/rewrite_target.h"
#include "eval/eval_pool.h"
#include "rewrite/rewrite_candidate.h"
#include "rewrite/strip_motifs.h"

namespace aoc::cli {
namespace {

struct RewriteArgs {
  std::string dir;
  std::string apply, remove;
  std::string out;
  bool json = false;
  bool guided = false;
  bool remove_all = false;
  std::vector<std::string> keep;
  size_t k = 3;
  std::string bank;
  size_t jobs = 0;
  BankEvalFlags eval;
};

// The package, expert folder or candidate to rewrite; the error is printed when it is none.
std::optional<aoc::eval::Candidate> target_of(const RewriteArgs& a) {
  std::string error;
  auto c = load_rewrite_target(a.dir, error);
  if (!c) std::cerr << "error: " << error << "\n";
  return c;
}

int run_guided(const RewriteArgs& a) {
  if (!a.apply.empty() || !a.remove.empty()) {
    std::cerr << "error: --guided picks the motifs itself; drop --apply/--remove\n";
    return 2;
  }
  if (!target_of(a)) return 2;
  std::string error;
  auto setup = make_bank_eval_setup(a.eval, error);
  if (!setup) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  aoc::bank::GuidedOptions o;
  o.k = a.k;
  o.jobs = a.jobs ? a.jobs : aoc::eval::default_jobs();
  o.eval = setup->eval;
  o.store = setup->store.get();
  o.out_dir = a.out.empty() ? std::filesystem::path(".") : std::filesystem::path(a.out);
  const bool tty = ::isatty(STDERR_FILENO);
  if (tty) o.log = [](const std::string& line) { std::cerr << "\r\033[K" << line.substr(0, 120) << std::flush; };
  aoc::build::Builder builder(setup->builder);
  aoc::bank::GuidedResult r;
  try {
    aoc::bank::Bank bank(bank_path(a.bank));
    r = aoc::bank::guided_rewrite(a.dir, builder, bank, o);
  } catch (const std::exception& e) {
    if (tty) std::cerr << "\r\033[K";
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (tty) std::cerr << "\r\033[K";
  if (a.json) {
    std::cout << aoc::bank::to_json(r, a.k).dump(2) << "\n";
    return r.target_failure.empty() ? 0 : 1;
  }
  std::cout << r.target.op << " (" << a.dir << "), bound " << (r.target.context.bound.empty() ? "?" : r.target.context.bound)
            << "\n";
  if (!r.target_failure.empty()) {
    std::cout << "the target itself is " << r.target_failure << "; nothing tried\n";
    return 1;
  }
  std::cout << "bank ranking:\n";
  print_ranking(std::cout, r.ranking, a.k);
  if (r.tries.empty()) std::cout << "no motif of the bank is applicable to this kernel: nothing tried\n";
  for (const auto& t : r.tries) {
    std::string name;
    for (const auto& m : t.motifs) name += (name.empty() ? "" : "+") + m;
    std::cout << "  " << std::left << std::setw(36) << name << std::setw(9) << t.status;
    if (t.speedup) std::cout << std::fixed << std::setprecision(3) << *t.speedup << "x " << (t.helped ? "helped" : "did not help");
    if (!t.reason.empty()) std::cout << t.reason;
    std::cout << "\n";
    if (t.status == "ok") std::cout << "      " << t.dir.string() << "\n";
  }
  std::cout << "adoption recorded for " << r.tries.size() << " tries; " << std::fixed << std::setprecision(1) << r.seconds
            << " s\n";
  return 0;
}

int run_remove_all(const RewriteArgs& a) {
  if (!a.apply.empty() || !a.remove.empty()) {
    std::cerr << "error: --remove-all takes out every present motif; drop --apply/--remove (or use --keep M to leave one)\n";
    return 2;
  }
  const auto c = target_of(a);
  if (!c) return 2;
  const std::set<std::string> keep(a.keep.begin(), a.keep.end());
  const std::string out = a.out.empty() ? c->package.name + "-remove-all" : a.out;
  aoc::rewrite::StripOutcome r;
  try {
    r = aoc::rewrite::strip_motifs(*c, keep, out, header_hash());
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (a.json) {
    nlohmann::json j = {{"op", c->package.name}, {"action", "remove-all"}, {"removed", r.removed}, {"done", r.done()}};
    nlohmann::json refused = nlohmann::json::object();
    for (const auto& [m, why] : r.refused) refused[m] = why;
    j["refused"] = refused;
    j["kept"] = a.keep;
    if (r.done()) {
      j["out"] = out;
      j["changed"] = r.changed;
      j["diff"] = r.diff;
    }
    std::cout << j.dump(2) << "\n";
    return r.done() ? 0 : 3;
  }
  if (r.done()) std::cout << r.diff;
  for (const auto& [m, why] : r.refused) std::cout << "remove " << m << " refused: " << why << "\n";
  if (!r.done()) {
    std::cout << "no motif could be removed from " << a.dir << "; nothing written\n";
    return 3;
  }
  std::string list;
  for (const auto& m : r.removed) list += (list.empty() ? "" : ", ") + m;
  std::cout << "wrote candidate " << out << " (removed, in order: " << list << "); evaluate it with: ascendopt eval " << out
            << "\n";
  return 0;
}

int run(const RewriteArgs& a) {
  if (a.guided && a.remove_all) {
    std::cerr << "error: --guided and --remove-all are different commands; give one\n";
    return 2;
  }
  if (a.guided) return run_guided(a);
  if (a.remove_all) return run_remove_all(a);
  if (!a.keep.empty()) {
    std::cerr << "error: --keep goes with --remove-all\n";
    return 2;
  }
  if (a.apply.empty() == a.remove.empty()) {
    std::cerr << "error: give exactly one of --apply MOTIF or --remove MOTIF (ascendopt motifs OP_DIR lists them)\n";
    return 2;
  }
  const auto c = target_of(a);
  if (!c) return 2;
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
  cmd->add_flag("--remove-all", args->remove_all,
                "Remove every present motif, one after another (a refused removal is tried again after the next "
                "one): the kernel without its optimizations");
  cmd->add_option("--keep", args->keep, "With --remove-all: motifs to leave in (repeat or comma-separate)")->delimiter(',');
  cmd->add_option("--out", args->out,
                  "New candidate folder (default: <op>-<action>-<motif>, <op>-remove-all); with --guided the folder the candidates go "
                  "in (default: .)");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_flag("--guided", args->guided,
                "Let the experience bank pick: its top motifs alone, then in pairs, evaluated on the public cases, "
                "adoption recorded (docs/bank.md)");
  cmd->add_option("-k", args->k, "With --guided: motifs tried alone")->capture_default_str();
  cmd->add_option("--bank", args->bank, "With --guided: experience bank file (default: <cache dir>/experience-bank.sqlite)");
  cmd->add_option("--jobs,-j", args->jobs, "With --guided: candidates evaluated at once");
  cmd->add_option("--seed", args->eval.seed, "With --guided: input seed of the evaluations")->capture_default_str();
  cmd->add_option("--case", args->eval.cases, "With --guided: only these public cases (not the full gate)");
  cmd->add_option("--store", args->eval.store, "With --guided: result store (default: <cache dir>/eval-results.sqlite)");
  cmd->add_flag("--no-store", args->eval.no_store, "With --guided: neither read nor write the result store");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
