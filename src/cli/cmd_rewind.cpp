// `ascendopt rewind KERNEL_DIR... [--threshold 0.02] [--bank FILE] [--jobs N] [--json]`: mine
// the experience bank by removing each optimization motif of strong kernels (docs/rewind.md).
#include <unistd.h>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bank/split.h"
#include "cli/bank_cli.h"
#include "bank/store.h"
#include "cli/commands.h"
#include "eval/eval_pool.h"
#include "rewind/rewind.h"

namespace aoc::cli {
namespace {
namespace fs = std::filesystem;

struct RewindArgs {
  std::vector<std::string> dirs;
  std::string split;
  double threshold = 0.02;
  std::vector<std::string> motifs;
  bool hunks = false;
  std::string bank;
  size_t jobs = 0;
  bool json = false;
  uint64_t seed = 1;
  std::string soc = "Ascend910B1";
  std::vector<std::string> cases;
  std::string work_dir;
  std::string store;
  bool no_store = false;
  double timeout = 60;
};

std::string speedup_text(const std::optional<double>& v) {
  if (!v) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(3) << *v << "x";
  return os.str();
}

void print_result(std::ostream& os, const aoc::rewind::RewindResult& r) {
  os << (r.op.empty() ? "?" : r.op) << "  " << r.kernel_dir << "  (" << std::fixed << std::setprecision(1) << r.seconds
     << " s)\n";
  if (!r.failure.empty()) os << "  not rewound: " << r.failure << "\n";
  if (r.motifs.empty()) {
    if (r.failure.empty()) os << "  no motif present: nothing to rewind\n";
    return;
  }
  os << "  " << std::left << std::setw(18) << "motif" << std::setw(10) << "verdict" << std::right << std::setw(9)
     << "speedup" << "  " << std::left << std::setw(10) << "kind" << "entry\n";
  for (const auto& m : r.motifs) {
    const bool ok = m.status == "positive" || m.status == "negative";
    os << "  " << std::left << std::setw(18) << m.motif << std::setw(10) << (ok ? "ok" : m.status) << std::right
       << std::setw(9) << speedup_text(m.speedup) << "  " << std::left << std::setw(10) << (ok ? m.status : "-")
       << (m.entry_id ? std::to_string(*m.entry_id) : "-") << "\n";
    if (!m.reason.empty()) os << "      " << m.reason << "\n";
  }
}

int run(const RewindArgs& a) {
  std::vector<std::string> dirs = a.dirs;
  if (!a.split.empty()) {
    try {
      const auto split = aoc::bank::read_split(aoc::bank::default_split_file());
      if (a.split != "train") {
        std::cerr << "error: --split " << a.split << ": only the train split is mined (the test split is never)\n";
        return 2;
      }
      for (const auto& op : split.train)
        dirs.push_back((aoc::bank::suite_root() / op / (a.hunks ? "" : "expert")).string());
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  if (dirs.empty()) {
    std::cerr << "error: give kernel folders (an expert/ folder, a candidate or a package) or --split train\n";
    return 2;
  }
  if (a.threshold < 0 || a.threshold > 1) {
    std::cerr << "error: --threshold " << a.threshold << " is not a fraction between 0 and 1 (0.02 = 2%)\n";
    return 2;
  }
  BankEvalFlags flags;
  flags.seed = a.seed;
  flags.soc = a.soc;
  flags.cases = a.cases;
  flags.timeout = a.timeout;
  flags.store = a.store;
  flags.no_store = a.no_store;
  std::string error;
  auto setup = make_bank_eval_setup(flags, error);
  if (!setup) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  aoc::rewind::RewindOptions o;
  o.threshold = a.threshold;
  o.only_motifs = a.motifs;
  o.jobs = a.jobs ? a.jobs : aoc::eval::default_jobs();
  o.eval = setup->eval;
  o.store = setup->store.get();
  o.source_root = setup->builder.root;
  o.work_dir = a.work_dir.empty() ? setup->builder.cache_dir / "rewind" : fs::path(a.work_dir);
  const auto& bo = setup->builder;
  const bool tty = ::isatty(STDERR_FILENO);
  if (tty) o.log = [](const std::string& line) { std::cerr << "\r\033[K" << line.substr(0, 120) << std::flush; };
  aoc::eval::Builder builder(bo);
  const auto start = std::chrono::steady_clock::now();
  try {
    aoc::bank::Bank bank(bank_path(a.bank));
    nlohmann::json all = nlohmann::json::array();
    bool any_failure = false;
    size_t stored = 0;
    for (const auto& d : dirs) {
      const auto r = a.hunks ? aoc::rewind::ablate_hunks(d, builder, bank, o) : aoc::rewind::rewind_kernel(d, builder, bank, o);
      if (tty) std::cerr << "\r\033[K";
      any_failure = any_failure || !r.failure.empty();
      for (const auto& m : r.motifs) stored += m.entry_id ? 1 : 0;
      if (a.json) all.push_back(aoc::rewind::to_json(r));
      else print_result(std::cout, r);
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
      std::cout << nlohmann::json{{"bank", bank.file()}, {"threshold", a.threshold}, {"seed", a.seed},
                                  {"kernels", all},      {"entries_stored", stored}, {"wall_seconds", wall}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << stored << " entries stored in " << bank.file().string() << "; wall time " << std::fixed
                << std::setprecision(1) << wall << " s\n";
    }
    return any_failure ? 1 : 0;
  } catch (const aoc::bank::BankError& e) {
    if (tty) std::cerr << "\r\033[K";
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_rewind_command(CLI::App& app) {
  auto args = std::make_shared<RewindArgs>();
  CLI::App* cmd = app.add_subcommand(
      "rewind", "Mine the experience bank: remove each motif of strong kernels, evaluate, store what it was worth "
                "(docs/rewind.md)");
  cmd->add_option("KERNEL_DIR", args->dirs, "Strong kernels: expert/ folders, candidate folders or packages");
  cmd->add_option("--split", args->split, "Also every expert of this split of data/bank_split.toml (train)");
  cmd->add_option("--threshold", args->threshold,
                  "Positive entry when the kernel beats its rewound form by more than this fraction (geomean)")
      ->capture_default_str();
  cmd->add_flag("--hunks", args->hunks,
                "Hunk ablation instead: each KERNEL_DIR is a package with an expert; every hunk of the expert against "
                "the baseline is reverted alone and classified by the motif whose detector state it changes");
  cmd->add_option("--motif", args->motifs, "Only these motifs (default: every motif present)");
  cmd->add_option("--bank", args->bank, "Experience bank file (default: <cache dir>/experience-bank.sqlite)");
  cmd->add_option("--jobs,-j", args->jobs, "Kernels evaluated at once (default: one per hardware thread)");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_option("--seed", args->seed, "Input seed of the evaluations")->capture_default_str();
  cmd->add_option("--soc", args->soc, "SoC model")->capture_default_str();
  cmd->add_option("--case", args->cases, "Only these public cases (for quick looks; not the full gate)");
  cmd->add_option("--work-dir", args->work_dir, "Where rewound kernels are written (default: <cache dir>/rewind)");
  cmd->add_option("--store", args->store, "Result store (default: <cache dir>/eval-results.sqlite)");
  cmd->add_flag("--no-store", args->no_store, "Neither read nor write the result store");
  cmd->add_option("--timeout", args->timeout, "Wall-clock limit per case, seconds")->capture_default_str();
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
