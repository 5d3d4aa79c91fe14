// `ascendopt bench OPS... --methods ... --budgets ... --seeds K --jobs J`: every (operator,
// method, budget, seed) as an `ascendopt optimize` process, resumable, then the figures
// (geomean, fast_p, T_HW ratio, progress, per operator) and an HTML report. docs/bench.md.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/html_report.h"
#include "bench/metrics.h"
#include "cli/commands.h"
#include "cli/executor_flags.h"
#include "cli/public_flags.h"
#include "eval/candidate.h"
#include "package/case_gen.h"
#include "search/methods.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;

struct BenchArgs {
  std::vector<std::string> paths;
  std::vector<std::string> methods = {"optimize", "best-of-n", "openevolve"};
  std::vector<size_t> budgets = {8, 16, 32};
  size_t seeds = 1;
  size_t jobs = 0;  // 0: not given
  std::string out = "bench-out";
  std::string html;
  bool json = false;
  std::string soc = "Ascend910B1";
  int64_t max_elements = 65536;
  double timeout = aoc::base::kDefaultCaseSeconds;
  std::string cache_dir;
  std::string llm_config;
  bool llm_replay = false;
  std::string bank;
  bool finished_only = false;
  std::vector<std::string> sets;  // public sets (docs/public-set.md)
  PublicFlags public_flags;
  ExecutorFlags executor;
};

// Operator packages, candidate folders (a rewritten kernel, e.g. `rewrite --remove-all`) and
// expert folders given, or those below a folder given.
std::vector<fs::path> find_packages(const std::vector<std::string>& paths) {
  std::vector<fs::path> dirs;
  for (const auto& p : paths)
    for (const auto& d : aoc::eval::find_candidates(p)) {
      fs::path dir = fs::absolute(d).lexically_normal();
      if (dir.filename().empty()) dir = dir.parent_path();  // "ops/activation/relu/" names relu
      dirs.push_back(dir);
    }
  return dirs;
}

// One hidden seed for every run of the benchmark, kept in the folder so a resumed benchmark
// verifies with the same draw: $ASCENDOPT_HIDDEN_SEED, else the folder's, else a fresh one.
// Returns 0, or the exit status of an error it printed.
int prepare_hidden_seed(aoc::bench::BenchOptions& o) {
  fs::create_directories(o.out_dir);
  const fs::path seed_file = o.out_dir / "hidden_seed";
  try {
    if (std::getenv("ASCENDOPT_HIDDEN_SEED")) o.hidden_seed = aoc::package::hidden_seed_from_environment();
    else if (std::ifstream in(seed_file); in >> o.hidden_seed) {
    } else o.hidden_seed = aoc::package::hidden_seed_from_environment();
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  std::ofstream(seed_file) << o.hidden_seed << "\n";
  std::cerr << "hidden seed " << o.hidden_seed << " (ASCENDOPT_HIDDEN_SEED repeats the verification draw)\n";
  return 0;
}

int run_bench(const BenchArgs& a) {
  aoc::bench::BenchOptions o;
  bool any_bank_method = false;
  for (const auto& m : a.methods) {
    const auto [method, with_bank] = aoc::bench::split_bank_method(m);
    if (!aoc::search::find_method(method)) {
      std::cerr << "error: --methods names " << m << ", not a method; use " << aoc::search::method_names()
                << ", each optionally as M@bank (with --bank FILE)\n";
      return 2;
    }
    any_bank_method |= with_bank;
  }
  if (any_bank_method && a.bank.empty()) {
    std::cerr << "error: a method written M@bank needs --bank FILE, the experience bank it is guided by\n";
    return 2;
  }
  if (!a.bank.empty() && !any_bank_method) {
    std::cerr << "error: --bank is used by the methods written M@bank only, e.g. --methods "
                 "rewrite-only,rewrite-only@bank; none is\n";
    return 2;
  }
  if (!a.bank.empty()) {
    if (!fs::is_regular_file(a.bank)) {
      std::cerr << "error: --bank " << a.bank << ": no such file; mine one with `ascendopt rewind` (docs/rewind.md)\n";
      return 2;
    }
    o.bank = fs::absolute(a.bank);
  }
  if (a.budgets.empty() || std::find(a.budgets.begin(), a.budgets.end(), 0u) != a.budgets.end()) {
    std::cerr << "error: --budgets must list budgets of at least 1 evaluation, e.g. --budgets 8,16,32\n";
    return 2;
  }
  if (a.seeds == 0) {
    std::cerr << "error: --seeds must be at least 1\n";
    return 2;
  }
  if (a.paths.empty() && a.sets.empty()) {
    std::cerr << "error: name operator packages (OPS) or a public set (--set public:train, docs/public-set.md)\n";
    return 2;
  }
  o.ops = find_packages(a.paths);
  PublicFlags pf = a.public_flags;
  pf.cache_dir = a.cache_dir;
  size_t skipped = 0;
  for (const auto& spec : a.sets) {
    try {
      const auto set = resolve_public_set(spec, pf);
      o.ops.insert(o.ops.end(), set.packages.begin(), set.packages.end());
      skipped += set.skipped.size();
    } catch (const std::exception& e) {
      std::cerr << "error: --set " << spec << ": " << e.what() << "\n";
      return 2;
    }
  }
  if (o.ops.empty()) {
    std::cerr << "error: no operator package or candidate (a folder with op.toml or candidate.toml) under the given paths"
              << (a.sets.empty() ? "" : " or in the given sets") << "\n";
    return 2;
  }
  o.methods = a.methods;
  o.budgets = a.budgets;
  o.seeds = a.seeds;
  o.out_dir = fs::absolute(a.out);
  std::string executor_error;
  const auto executor = executor_options(a.executor, a.jobs, o.out_dir / "slurm", executor_error);
  if (!executor) {
    std::cerr << "error: " << executor_error << "\n";
    return 2;
  }
  o.executor = *executor;
  o.program = fs::read_symlink("/proc/self/exe");
  o.optimize_args = {"--soc", a.soc, "--max-elements", std::to_string(a.max_elements), "--timeout",
                     std::to_string(a.timeout), "--json"};
  if (!a.cache_dir.empty()) {
    o.optimize_args.push_back("--cache-dir");
    o.optimize_args.push_back(a.cache_dir);
  }
  if (a.llm_replay && a.llm_config.empty()) {
    std::cerr << "error: --llm-replay needs --llm-config FILE\n";
    return 2;
  }
  if (!a.llm_config.empty()) {
    // Every run reads the same settings file; they share the response cache it names (or the default).
    o.optimize_args.push_back("--llm-config");
    o.optimize_args.push_back(fs::absolute(a.llm_config).string());
    if (a.llm_replay) o.optimize_args.push_back("--llm-replay");
  }
  o.log = [](const std::string& s) { std::cerr << s << std::endl; };
  o.executor.log = o.log;  // submissions and the queue's progress
  size_t failed = 0;
  std::vector<aoc::bench::BenchRun> runs;
  if (a.finished_only) {
    if (!fs::is_directory(o.out_dir / "runs")) {
      std::cerr << "error: --out " << a.out << " holds no benchmark runs; run the benchmark without --finished first\n";
      return 2;
    }
    const auto all = aoc::bench::bench_runs(o);
    const size_t finished = static_cast<size_t>(std::count_if(
        all.begin(), all.end(), [&](const aoc::bench::BenchRun& r) { return aoc::bench::run_finished(o, r); }));
    const size_t ops = o.ops.size();
    o.ops = aoc::bench::ops_with_every_run_finished(o);
    if (o.ops.empty()) {
      std::cerr << "error: no operator has every run finished yet (" << finished << " of " << all.size()
                << " runs finished); let the benchmark go on, or name fewer methods, budgets or seeds\n";
      return 1;
    }
    std::cerr << finished << " of " << all.size() << " run(s) finished; the figures cover the " << o.ops.size() << " of "
              << ops << " operator(s) whose every run has, and nothing is run\n";
    runs = aoc::bench::bench_runs(o);
  } else {
    const int status = prepare_hidden_seed(o);
    if (status != 0) return status;
    runs = aoc::bench::bench_runs(o);
    failed = aoc::bench::run_bench_processes(o, runs);
    if (o.executor.slurm.dry_run) return 0;  // nothing ran, so there is nothing to report
  }
  const auto summary = aoc::bench::summarize_bench(o, runs);
  // --finished only reads the folder, so it can look at a benchmark that is still running.
  if (!a.finished_only) std::ofstream(o.out_dir / "summary.json") << aoc::bench::to_json(summary).dump(2) << "\n";
  if (!a.html.empty()) {
    std::ofstream h(a.html);
    h << aoc::bench::html_report(summary);
    if (!h) {
      std::cerr << "error: cannot write " << a.html << "\n";
      return 2;
    }
  }
  if (a.json) std::cout << aoc::bench::to_json(summary).dump(2) << "\n";
  else std::cout << aoc::bench::bench_table(summary);
  if (skipped) std::cerr << skipped << " operator(s) of the set(s) skipped, as listed above (their import failed or they lack a golden)\n";
  if (failed) std::cerr << failed << " run(s) failed; their log.txt under " << (o.out_dir / "runs").string() << " says why\n";
  return failed ? 1 : 0;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto a = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Compare optimization methods at equal budgets over operators: geomean, "
                                              "fast_p, T_HW ratio, progress, HTML report (docs/bench.md)");
  cmd->add_option("OPS", a->paths, "Operator packages, candidate or expert folders, or folders holding them")->check(CLI::ExistingDirectory);
  cmd->add_option("--set", a->sets, "A public set: public[:train|:test] (the manifests of data/public), or a manifest file "
                                    "or folder with an optional :train or :test; its exported packages, exported first "
                                    "when missing (docs/public-set.md)");
  add_public_flags(cmd, a->public_flags, false);
  add_executor_flags(cmd, a->executor);
  cmd->add_option("--methods", a->methods,
                  "Methods compared; M@bank is method M with its kernel motifs chosen by --bank's experience bank")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--budgets", a->budgets, "Budgets (evaluations per operator)")->delimiter(',')->capture_default_str();
  cmd->add_option("--seeds", a->seeds, "Seeds 1..K per (operator, method, budget)")->capture_default_str();
  cmd->add_option("--jobs,-j", a->jobs, "Runs at once: processes (default 1), or with --executor slurm the job "
                                       "array's limit (default: as many as the cluster gives)");
  cmd->add_option("--out", a->out, "Benchmark folder: runs, shared result store, summary (resumes)")->capture_default_str();
  cmd->add_option("--html", a->html, "Write the HTML report to this file");
  cmd->add_flag("--json", a->json, "Print the summary as JSON");
  cmd->add_option("--soc", a->soc, "SoC model")->capture_default_str();
  cmd->add_option("--max-elements", a->max_elements, "Default cases: the performance cases with at most this many input elements (the smallest when none is; a package without performance cases: the largest case of each dtype)")
      ->capture_default_str();
  add_case_timeout_option(cmd, a->timeout);
  cmd->add_option("--cache-dir", a->cache_dir, "Build cache folder");
  cmd->add_option("--llm-config", a->llm_config, "LLM settings (docs/llm.md) for every run: the methods optimize, "
                                                 "rewrite-only, best-of-n and openevolve then ask the model for kernels")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--llm-replay", a->llm_replay, "Answer only from the LLM response cache (no network)");
  cmd->add_option("--bank", a->bank, "Experience bank (docs/bank.md) of the methods written M@bank, e.g. --methods "
                                     "rewrite-only,rewrite-only@bank compares guided and random motif order");
  cmd->add_flag("--finished", a->finished_only,
               "Run nothing: the figures and report of the runs finished so far in --out, over the operators whose "
               "every run has finished");
  cmd->callback([a]() { exit_status() = run_bench(*a); });
}

}  // namespace aoc::cli
