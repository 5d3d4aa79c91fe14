// `ascendopt tune OP_DIR`: search the tiling configuration (declared knobs, cores, UB) of
// one operator for the fastest simulated time; `ascendopt tune-bench DIR...`: evolve vs
// random vs the baseline at equal budgets over many operators. See docs/tune.md.
#include <unistd.h>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/content_hash.h"
#include "bench/tune_bench.h"
#include "cli/commands.h"
#include "cli/executor_flags.h"
#include "cli/harness_check.h"
#include "search/variant.h"
#include "tune/tuner.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;

struct TuneArgs {
  std::vector<std::string> paths;
  size_t budget = 32;
  std::vector<size_t> budgets = {16, 32, 64};
  uint64_t seed = 1;
  std::string soc = "Ascend910B1";
  std::string method = "evolve";
  std::vector<std::string> cases;
  bool json = false;
  bool no_repository = false;
  std::string repository;
  std::string cache_dir;
  double timeout = aoc::base::kDefaultCaseSeconds;
  int64_t max_elements = 0;
  bool no_verify = false;
  std::vector<std::string> merge;
  std::string out;  // tune-bench --executor slurm: the tasks' folders
  size_t jobs = 0;
  ExecutorFlags executor;
};

std::string config_text(const aoc::eval::TuningConfig& c) {
  return c.empty() ? "(defaults: the operator's own tiling)" : aoc::search::config_text(c);
}

// Shared setup of both commands; false (after printing why) when it cannot run.
bool setup(const TuneArgs& a, aoc::tune::TuneOptions& o, aoc::build::BuilderOptions& bo) {
  o.soc = a.soc;
  o.search.seed = a.seed;
  o.tuning_cases = a.cases;
  o.max_case_elements = a.max_elements;
  o.use_repository = !a.no_repository;
  o.repository_file = a.repository;
  o.eval = aoc::eval::default_candidate_eval_options();
  aoc::base::set_case_time_limit(o.eval.limits, a.timeout);
  if (const std::string missing = harness_missing(o.eval.harness); !missing.empty()) {
    std::cerr << "error: " << missing << "\n";
    return false;
  }
  bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  return true;
}

nlohmann::json report_json(const aoc::tune::TuneReport& r) {
  nlohmann::json j = {{"op", r.op},
                      {"package", r.package_dir},
                      {"soc", r.soc},
                      {"method", aoc::search::to_string(r.method)},
                      {"budget", r.budget},
                      {"seed", r.seed},
                      {"tuning_cases", r.tuning_cases},
                      {"tuning_cases_are_perf", r.tuning_cases_are_perf},
                      {"repository_key", r.repo_key.text()},
                      {"started_from_repository", r.repository_start.has_value()},
                      {"repository_updated", r.repository_updated},
                      {"baseline_us", r.baseline_us},
                      {"best_us", r.best_us},
                      {"speedup", r.speedup()},
                      {"evaluations", r.search.charged_count()},
                      {"same_tiling", r.search.free_count()},
                      {"invalid", r.search.invalid},
                      {"gates", r.gates},
                      {"best_config", aoc::eval::to_json(r.best)},
                      {"best_point", r.best_key},
                      {"verified", r.verification.passed},
                      {"verification", r.verification.passed ? "passed every public case and a hidden draw"
                                                             : r.verification.message},
                      {"rejected", r.rejected},
                      {"hidden_seed", r.hidden_seed ? nlohmann::json(*r.hidden_seed) : nlohmann::json(nullptr)},
                      {"seconds", r.seconds},
                      {"seconds_per_evaluation", r.seconds_per_evaluation}};
  j["space"] = nlohmann::json::array();
  for (const auto& d : r.space.dims)
    j["space"].push_back({{"name", d.name}, {"values", d.values}, {"default", d.values[d.default_index]},
                          {"role", static_cast<int>(d.role)}});
  j["history"] = nlohmann::json::array();
  for (const auto& e : r.search.history)
    j["history"].push_back(
        {{"point", e.key}, {"valid", e.valid}, {"time_us", e.time_us}, {"reason", e.reason}, {"free", e.free}});
  return j;
}

void print_human(std::ostream& os, const aoc::tune::TuneReport& r) {
  os << std::fixed << std::setprecision(2);
  os << r.op << " on " << r.soc << ": " << aoc::search::to_string(r.method) << ", budget " << r.budget << ", seed "
     << r.seed << "\n";
  os << (r.tuning_cases_are_perf ? "tuning cases (performance cases; the geomean of their simulated Task Durations is the speed):"
                                 : "tuning cases (geomean of simulated Task Duration):");
  for (const auto& c : r.tuning_cases) os << " " << c;
  os << "\n";
  os << "search space: " << r.space.dims.size() << " dimensions, " << r.space.size() << " points:";
  for (const auto& d : r.space.dims) os << " " << d.name << "[" << d.values.size() << "]";
  os << "\n";
  if (r.space.dims.empty())
    os << "nothing to tune: the tiling function reads neither the core count nor the UB size of the platform "
          "and declares no knobs (tiling/tuning_knobs.h), so only its own configuration was evaluated\n";
  else if (r.space.find("cores") < 0 || r.space.find("ub_bytes") < 0)
    os << "not varied: " << (r.space.find("cores") < 0 ? "the core count" : "")
       << (r.space.find("cores") < 0 && r.space.find("ub_bytes") < 0 ? " and " : "")
       << (r.space.find("ub_bytes") < 0 ? "the UB size" : "") << " (the tiling function does not read it)\n";
  if (r.repository_start)
    os << "started from the repository (" << r.repo_key.text() << "): " << config_text(r.repository_start->config)
       << "\n";
  os << "baseline time:  " << r.baseline_us << " us\n";
  os << "best time:      " << r.best_us << " us\n";
  os << "speedup:        " << std::setprecision(3) << r.speedup() << "x\n";
  os << "evaluations:    " << r.search.charged_count() << " of " << r.budget << " ("
     << r.search.invalid << " invalid, " << r.gates << " paid the full gate; " << r.search.free_count()
     << " configuration(s) with an evaluated one's tiling, not charged), " << std::setprecision(1)
     << r.seconds_per_evaluation << " s each\n";
  os << "best config:    " << config_text(r.best) << "\n";
  for (const auto& x : r.rejected) os << "rejected in verification: " << x << "\n";
  if (r.verification.passed)
    os << "verified:       the best configuration passed every public case and a hidden draw of "
       << aoc::search::kHiddenCount << " generated cases (seed " << r.hidden_seed.value_or(0)
       << "; ASCENDOPT_HIDDEN_SEED repeats it)\n";
  else
    os << "NOT verified:   " << r.verification.message << "\n";
  if (r.repository_updated) os << "stored in the tuning repository under " << r.repo_key.text() << "\n";
}

int run_tune(const TuneArgs& a) {
  aoc::tune::TuneOptions o;
  aoc::build::BuilderOptions bo;
  if (!setup(a, o, bo)) return 2;
  const auto m = aoc::search::parse_host_method(a.method);
  if (!m) {
    std::cerr << "error: --method " << a.method << " is not a method; use evolve or random\n";
    return 2;
  }
  if (a.budget == 0) {
    std::cerr << "error: --budget must be at least 1 (the baseline is the first evaluation)\n";
    return 2;
  }
  o.search.method = *m;
  o.search.budget = a.budget;
  if (::isatty(STDERR_FILENO)) {
    o.progress = [](const aoc::search::Evaluation& e, size_t done, size_t budget) {
      std::cerr << "\r\033[K[" << done << "/" << budget << "] "
                << (e.valid ? std::to_string(e.time_us) + " us" : "invalid") << "  " << e.key << std::flush;
      if (done == budget) std::cerr << "\n";
    };
  }
  aoc::build::Builder builder(bo);
  try {
    const auto r = aoc::tune::tune(a.paths.at(0), builder, o);
    if (::isatty(STDERR_FILENO)) std::cerr << "\r\033[K";
    if (a.json) std::cout << report_json(r).dump(2) << "\n";
    else print_human(std::cout, r);
    return r.verification.passed ? 0 : 1;
  } catch (const aoc::tune::TuneError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}

// Summary over saved reports of runs on different operators.
int merge_reports(const TuneArgs& a) {
  aoc::bench::TuneBenchReport all;
  for (size_t i = 0; i < a.merge.size(); ++i) {
    std::ifstream in(a.merge[i]);
    if (!in) {
      std::cerr << "error: cannot read " << a.merge[i] << "\n";
      return 2;
    }
    try {
      auto r = aoc::bench::tune_bench_from_json(nlohmann::json::parse(in));
      if (i > 0 && (r.options.budgets != all.options.budgets || r.options.verify != all.options.verify)) {
        std::cerr << "error: " << a.merge[i] << " has other budgets or verification than " << a.merge[0] << "\n";
        return 2;
      }
      if (i == 0) all = r;
      else {
        all.ops.insert(all.ops.end(), r.ops.begin(), r.ops.end());
        all.seconds += r.seconds;
      }
    } catch (const std::exception& e) {
      std::cerr << "error: " << a.merge[i] << ": " << e.what() << "\n";
      return 2;
    }
  }
  if (a.json) std::cout << aoc::bench::to_json(all).dump(2) << "\n";
  else std::cout << aoc::bench::tune_bench_table(all);
  return 0;
}

// The operator's report written by its task (`tune-bench OP --json`), nullopt until it has one.
std::optional<aoc::bench::TuneBenchReport> task_report(const aoc::cluster::Task& t) {
  std::ifstream in(t.stdout_file);
  if (!in) return std::nullopt;
  try {
    auto r = aoc::bench::tune_bench_from_json(nlohmann::json::parse(in));
    if (r.ops.size() != 1) return std::nullopt;
    return r;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// One task per operator, each `ascendopt tune-bench OP --json`; the reports merged in operator
// order as --merge would (docs/cluster.md).
int tune_bench_as_tasks(const TuneArgs& a, const std::vector<fs::path>& dirs, const fs::path& out,
                        aoc::cluster::ExecutorOptions executor) {
  std::ostringstream timeout;
  timeout.precision(17);
  timeout << a.timeout;
  std::string budgets;
  for (size_t b : a.budgets) budgets += (budgets.empty() ? "" : ",") + std::to_string(b);
  std::vector<aoc::cluster::Task> tasks;
  for (const auto& d : dirs) {
    const fs::path dir = fs::absolute(d).lexically_normal();
    aoc::cluster::Task t;
    t.name = dir.filename().string() + "-" + aoc::base::ContentHash().add(dir.string()).hex().substr(0, 8);
    t.dir = out / "tasks" / t.name;
    t.stdout_file = t.dir / "report.json";
    t.argv = {fs::read_symlink("/proc/self/exe").string(), "tune-bench", dir.string(), "--json", "--budgets", budgets,
              "--seed", std::to_string(a.seed), "--soc", a.soc, "--max-elements", std::to_string(a.max_elements),
              "--timeout", timeout.str()};
    if (a.no_verify) t.argv.push_back("--no-verify");
    if (!a.cache_dir.empty()) t.argv.insert(t.argv.end(), {"--cache-dir", fs::absolute(a.cache_dir).string()});
    tasks.push_back(std::move(t));
  }
  executor.log = [](const std::string& s) { std::cerr << s << std::endl; };
  size_t done = 0;
  const auto summary = aoc::cluster::run_tasks(
      executor, tasks, [](const aoc::cluster::Task& t) { return task_report(t).has_value(); },
      [&](const aoc::cluster::Task& t, const aoc::cluster::TaskEnd& e) {
        std::cerr << "[" << ++done << "] " << t.name << ": " << (e.finished ? "done" : "failed, " + e.why) << std::endl;
      });
  if (executor.slurm.dry_run) return 0;
  aoc::bench::TuneBenchReport all;
  bool first = true;
  std::vector<std::string> missing;
  for (const auto& t : tasks) {
    const auto r = task_report(t);
    if (!r) {
      missing.push_back(t.name + " (see " + (t.dir / "log.txt").string() + ")");
      continue;
    }
    if (first) all = *r;
    else {
      all.ops.insert(all.ops.end(), r->ops.begin(), r->ops.end());
      all.seconds += r->seconds;
    }
    first = false;
  }
  if (!summary.error.empty()) std::cerr << "error: " << summary.error << "\n";
  for (const auto& m : missing) std::cerr << "error: no report from " << m << "\n";
  if (first) return 1;
  if (a.json) std::cout << aoc::bench::to_json(all).dump(2) << "\n";
  else std::cout << aoc::bench::tune_bench_table(all);
  return missing.empty() ? 0 : 1;
}

int run_bench(const TuneArgs& a) {
  if (!a.merge.empty()) return merge_reports(a);
  aoc::bench::TuneBenchOptions bo;
  aoc::build::BuilderOptions builder_opts;
  if (!setup(a, bo.tune, builder_opts)) return 2;
  bo.budgets = a.budgets;
  bo.verify = !a.no_verify;
  // One line per operator and method as it finishes: a long run shows (and keeps) partial results.
  bo.log = [](const std::string& s) { std::cerr << s << std::endl; };
  if (a.paths.empty()) {
    std::cerr << "error: name operator packages (or folders holding them), or --merge saved reports\n";
    return 2;
  }
  std::vector<fs::path> dirs;
  for (const auto& p : a.paths) {
    if (fs::exists(fs::path(p) / "op.toml")) {
      dirs.push_back(p);
      continue;
    }
    std::vector<fs::path> found;
    for (const auto& e : fs::recursive_directory_iterator(p))
      if (e.is_regular_file() && e.path().filename() == "op.toml" &&
          e.path().parent_path().filename() != "expert")
        found.push_back(e.path().parent_path());
    std::sort(found.begin(), found.end());
    dirs.insert(dirs.end(), found.begin(), found.end());
  }
  if (dirs.empty()) {
    std::cerr << "error: no operator package (a folder with op.toml) under the given paths\n";
    return 2;
  }
  std::string executor_error;
  const fs::path out = fs::absolute(a.out.empty() ? fs::path("tune-bench-out") : fs::path(a.out));
  const auto executor = executor_options(a.executor, a.jobs, out / "slurm", executor_error);
  if (!executor) {
    std::cerr << "error: " << executor_error << "\n";
    return 2;
  }
  if (executor->kind == aoc::cluster::ExecutorKind::Slurm) return tune_bench_as_tasks(a, dirs, out, *executor);
  if (!a.out.empty() || a.jobs) {
    std::cerr << "error: --out and --jobs apply to --executor slurm; locally tune-bench runs the operators in one process\n";
    return 2;
  }
  aoc::build::Builder builder(builder_opts);
  const auto r = aoc::bench::run_tune_bench(dirs, builder, bo);
  if (a.json) std::cout << aoc::bench::to_json(r).dump(2) << "\n";
  else std::cout << aoc::bench::tune_bench_table(r);
  return 0;
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = app.add_subcommand("tune", "Search an operator's tiling configuration (declared knobs, cores, UB) "
                                             "for the fastest simulated time (see docs/tune.md)");
  cmd->add_option("OP_DIR", args->paths, "Operator package (op.toml) or candidate folder")
      ->required()
      ->expected(1)
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--budget", args->budget, "Evaluations (configurations run on the tuning cases)")
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the search and of the case inputs")->capture_default_str();
  cmd->add_option("--soc", args->soc, "SoC model")->capture_default_str();
  cmd->add_option("--method", args->method, "evolve or random")->capture_default_str();
  cmd->add_option("--case", args->cases, "Tune on these public cases (default: the performance cases, whose geomean is the package's speed)");
  cmd->add_option("--max-elements", args->max_elements,
                  "Default cases: the performance cases with at most this many input elements (the smallest when none is; a package without performance cases: the largest case of each dtype)");
  cmd->add_flag("--json", args->json, "Print a JSON report");
  cmd->add_flag("--no-repository", args->no_repository, "Neither start from nor update the tuning repository");
  cmd->add_option("--repository", args->repository, "Repository file (default: <cache dir>/tune/repository.json)");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  add_case_timeout_option(cmd, args->timeout);
  cmd->callback([args]() { exit_status() = run_tune(*args); });

  auto bargs = std::make_shared<TuneArgs>();
  bargs->max_elements = 1 << 16;  // one evaluation well under a second or two on a loaded machine
  CLI::App* bench = app.add_subcommand("tune-bench", "Compare evolve, random and the baseline at equal budgets over "
                                                     "operator packages: geomean speedup and fast_p (docs/tune.md)");
  bench->add_option("DIR", bargs->paths, "Operator packages or folders holding them")->check(CLI::ExistingDirectory);
  bench->add_option("--merge", bargs->merge,
                    "Summarise saved --json reports of runs over different operators instead of running");
  bench->add_option("--budgets", bargs->budgets, "Budgets compared")->delimiter(',')->capture_default_str();
  bench->add_option("--seed", bargs->seed, "Seed of the searches and the case inputs")->capture_default_str();
  bench->add_option("--soc", bargs->soc, "SoC model")->capture_default_str();
  bench->add_flag("--json", bargs->json, "Print a JSON report");
  bench->add_option("--max-elements", bargs->max_elements,
                    "Default cases: the performance cases with at most this many input elements (the smallest when none is; a package without performance cases: the largest case of each dtype)")
      ->capture_default_str();
  bench->add_flag("--no-verify", bargs->no_verify, "Report tuning-case speedups without verifying the best on all cases");
  bench->add_option("--cache-dir", bargs->cache_dir, "Build cache folder")->capture_default_str();
  bench->add_option("--out", bargs->out, "With --executor slurm: the folder of the tasks (one per operator) and their "
                                         "reports, on a file system the nodes share (default: tune-bench-out)");
  bench->add_option("--jobs,-j", bargs->jobs, "With --executor slurm: tasks at once (default: as many as the cluster gives)");
  add_executor_flags(bench, bargs->executor);
  add_case_timeout_option(bench, bargs->timeout);
  bench->callback([bargs]() {
    bargs->no_repository = true;
    exit_status() = run_bench(*bargs);
  });
}

}  // namespace aoc::cli
