// `ascendopt rewind KERNEL_DIR... [--threshold 0.02] [--bank FILE] [--jobs N] [--json]
// [--llm-config FILE [--llm-asks N]]`: mine the experience bank by removing each optimization
// motif of strong kernels, and with a model the removals it is asked for (docs/rewind.md).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bank/split.h"
#include "bank/store.h"
#include "cli/bank_cli.h"
#include "cli/commands.h"
#include "cli/executor_flags.h"
#include "cli/llm_flags.h"
#include "cli/rewind_tasks.h"
#include "eval/eval_pool.h"
#include "llm/chat_client.h"
#include "llm/proposer.h"
#include "rewind/llm_removals.h"
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
  double timeout = aoc::base::kDefaultCaseSeconds;
  LlmFlags llm;
  std::optional<size_t> llm_asks;
  ExecutorFlags executor;
};

// The model behind `--llm-config`: client, proposer and the remover rewinding asks through.
struct RewindModel {
  std::unique_ptr<aoc::llm::ChatClient> client;
  std::unique_ptr<aoc::llm::LlmProposer> proposer;
  std::unique_ptr<aoc::rewind::LlmRemover> remover;
};

// Null with `error` set when the flags are wrong; a null model without error: none asked for.
std::optional<RewindModel> make_model(const RewindArgs& a, const fs::path& cache_root, std::string& error) {
  if (!a.llm.any() && !a.llm_asks) return std::nullopt;
  if (!a.llm.wanted()) {
    error = "the --llm-* flags and --llm-asks need --llm-config FILE (or --llm-base-url and --llm-model); see "
            "docs/llm.md";
    return std::nullopt;
  }
  if (a.hunks) {
    error = "--hunks reverts the expert's hunks and asks no model; run the model's removals without --hunks";
    return std::nullopt;
  }
  RewindModel m;
  try {
    const auto o = resolve_llm_options(a.llm, cache_root);
    m.client = std::make_unique<aoc::llm::ChatClient>(o, aoc::llm::ApiKey::from_environment(o.api_key_env));
  } catch (const std::exception& e) {
    error = std::string("LLM settings: ") + e.what();
    return std::nullopt;
  }
  m.proposer = std::make_unique<aoc::llm::LlmProposer>(*m.client);
  m.remover = std::make_unique<aoc::rewind::LlmRemover>(*m.proposer, a.llm_asks.value_or(1));
  return m;
}

nlohmann::json model_json(const RewindModel& m) {
  const auto& c = m.remover->counts();
  return {{"settings", aoc::llm::to_json(m.client->options())},
          {"usage", m.client->totals().to_json()},
          {"proposals",
           {{"asked", c.asked},
            {"loaded_from_work_dir", c.loaded},
            {"applied", c.applied},
            {"unusable", c.unusable},
            {"endpoint_errors", c.endpoint_errors}}},
          {"notes", m.remover->notes()}};
}

void print_model(std::ostream& os, const RewindModel& m) {
  const auto& c = m.remover->counts();
  os << m.client->totals().summary_line() << "\nllm removals: " << c.asked << " asked, " << c.loaded
     << " loaded from the work folder; " << c.applied << " applied, " << c.unusable << " not applicable, "
     << c.endpoint_errors << " without an answer\n";
  for (const auto& n : m.remover->notes()) os << "note: " << n << "\n";
}

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
  // The model's rows are marked llm:<label>; the column fits the longest name.
  auto name = [](const aoc::rewind::RewoundMotif& m) { return (m.source == "llm" ? "llm:" : "") + m.motif; };
  size_t width = 18;
  for (const auto& m : r.motifs) width = std::max(width, name(m).size() + 2);
  os << "  " << std::left << std::setw(int(width)) << "motif" << std::setw(10) << "verdict" << std::right << std::setw(9)
     << "speedup" << "  " << std::left << std::setw(10) << "kind" << "entry\n";
  for (const auto& m : r.motifs) {
    const bool ok = m.status == "positive" || m.status == "negative";
    os << "  " << std::left << std::setw(int(width)) << name(m) << std::setw(10) << (ok ? "ok" : m.status) << std::right
       << std::setw(9) << speedup_text(m.speedup) << "  " << std::left << std::setw(10) << (ok ? m.status : "-")
       << (m.entry_id ? std::to_string(*m.entry_id) : "-") << "\n";
    if (m.source == "llm")
      os << "      asked to remove " << (m.target.empty() ? "the optimization that matters most" : m.target)
         << (m.removed.empty() ? "" : "; removed: " + m.removed) << "\n";
    if (!m.after.empty()) os << "      refused alone; removed from the kernel without " << m.after << "\n";
    if (!m.reason.empty()) os << "      " << m.reason << "\n";
    if (m.from_bank) os << "      already in the bank: not evaluated again\n";
  }
}

// What each task's `rewind` of one kernel gets besides the kernel, the bank, store and folders.
std::vector<std::string> task_args(const RewindArgs& a) {
  std::ostringstream threshold, timeout;
  threshold.precision(17);
  threshold << a.threshold;
  timeout.precision(17);
  timeout << a.timeout;
  std::vector<std::string> out = {"--threshold", threshold.str(), "--seed", std::to_string(a.seed), "--soc", a.soc,
                                  "--timeout", timeout.str(), "--jobs", std::to_string(a.executor.cpus_per_task)};
  if (a.hunks) out.push_back("--hunks");
  for (const auto& m : a.motifs) out.insert(out.end(), {"--motif", m});
  for (const auto& c : a.cases) out.insert(out.end(), {"--case", c});
  const auto llm = llm_flag_args(a.llm);
  out.insert(out.end(), llm.begin(), llm.end());
  if (a.llm_asks) out.insert(out.end(), {"--llm-asks", std::to_string(*a.llm_asks)});
  return out;
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
  std::string model_error;
  auto model = make_model(a, setup->builder.cache_dir, model_error);
  if (!model_error.empty()) {
    std::cerr << "error: " << model_error << "\n";
    return 2;
  }
  if (model) o.llm = model->remover.get();
  const auto& bo = setup->builder;
  const bool tty = ::isatty(STDERR_FILENO);
  if (tty) o.log = [](const std::string& line) { std::cerr << "\r\033[K" << line.substr(0, 120) << std::flush; };
  std::string executor_error;
  const auto executor = executor_options(a.executor, a.jobs, o.work_dir / "cluster" / "slurm", executor_error);
  if (!executor) {
    std::cerr << "error: " << executor_error << "\n";
    return 2;
  }
  std::optional<RewindTasksOptions> tasks;
  if (executor->kind == aoc::cluster::ExecutorKind::Slurm) {
    tasks.emplace();
    tasks->dirs = dirs;
    tasks->common_args = task_args(a);
    tasks->no_store = a.no_store;
    tasks->work_dir = o.work_dir / "cluster";
    tasks->program = fs::read_symlink("/proc/self/exe");
    tasks->executor = *executor;
    tasks->executor.jobs = a.jobs;  // the array's limit; each task's own pool gets its CPUs (task_args)
    tasks->executor.log = [](const std::string& line) { std::cerr << line << std::endl; };
  }
  aoc::build::Builder builder(bo);
  const auto start = std::chrono::steady_clock::now();
  try {
    aoc::bank::Bank bank(bank_path(a.bank));
    nlohmann::json all = nlohmann::json::array();
    bool any_failure = false;
    size_t stored = 0, already = 0;
    std::vector<aoc::rewind::RewindResult> results;
    if (tasks) {
      const auto t = rewind_as_tasks(*tasks, bank);
      if (tasks->executor.slurm.dry_run) return 0;
      for (const auto& f : t.failed) std::cerr << "error: " << f << "\n";
      any_failure = !t.failed.empty();
      results = t.results;
    }
    for (size_t i = 0; i < (tasks ? results.size() : dirs.size()); ++i) {
      const auto& d = dirs[i];
      const auto r = tasks ? results[i]
                           : a.hunks ? aoc::rewind::ablate_hunks(d, builder, bank, o) : aoc::rewind::rewind_kernel(d, builder, bank, o);
      if (tty) std::cerr << "\r\033[K";
      any_failure = any_failure || !r.failure.empty();
      for (const auto& m : r.motifs) (m.from_bank ? already : stored) += m.entry_id ? 1 : 0;
      if (a.json) all.push_back(aoc::rewind::to_json(r));
      else print_result(std::cout, r);
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
      nlohmann::json j = {{"bank", bank.file()}, {"threshold", a.threshold}, {"seed", a.seed},
                          {"kernels", all},      {"entries_stored", stored}, {"entries_already_in_bank", already},
                          {"wall_seconds", wall}};
      if (model && !tasks) j["llm"] = model_json(*model);  // with tasks, each task asked the model
      std::cout << j.dump(2) << "\n";
    } else {
      if (model && !tasks) print_model(std::cout, *model);
      std::cout << stored << " entries stored in " << bank.file().string()
                << (already ? " (" + std::to_string(already) + " found there already, not measured again)" : "")
                << "; wall time " << std::fixed
                << std::setprecision(1) << wall << " s\n";
    }
    return any_failure ? 1 : 0;
  } catch (const aoc::bank::BankError& e) {
    if (tty) std::cerr << "\r\033[K";
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const aoc::llm::LlmError& e) {  // settings, a replay without a recorded answer, the cache
    if (tty) std::cerr << "\r\033[K";
    std::cerr << "error: LLM: " << e.what() << "\n";
    return 2;
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
                "the baseline is reverted alone (or with the fewest other hunks it needs to parse) and classified by the "
                "motif whose detector state it changes");
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
  add_case_timeout_option(cmd, args->timeout);
  add_llm_flags(cmd, args->llm);
  add_executor_flags(cmd, args->executor);
  cmd->add_option("--llm-asks", args->llm_asks,
                  "With --llm-config: requests per kernel for the optimization the model judges to matter most "
                  "(default 1; 0: only the motifs the catalogue could not remove, by name)");
  cmd->footer("With --llm-config the model is also asked to remove one optimization at a time: each present motif "
              "the catalogue could not remove, by name, and --llm-asks times its own choice; its answers are "
              "evaluated and stored like the catalogue's removals (docs/rewind.md, \"With a model\").");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
