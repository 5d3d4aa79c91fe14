// `ascendopt eval CANDIDATE...`: evaluate candidate kernels (or operator packages) in
// isolated child processes, in parallel, with results kept in a SQLite store.
#include <unistd.h>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/harness_check.h"
#include "eval/candidate.h"
#include "eval/eval_pool.h"
#include "eval/report_perf.h"
#include "eval/seed.h"
#include "package/case_gen.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;

struct EvalArgs {
  std::vector<std::string> paths;
  size_t jobs = 0;
  std::string cases = "public";
  std::vector<std::string> only;
  bool json = false;
  bool full_sim = false;
  std::string store;
  bool no_store = false;
  std::string seed;
  std::string soc = "Ascend910B1";
  std::string cache_dir;
  double timeout = aoc::base::kDefaultCaseSeconds;
  double memory_gb = 8;
  int64_t hidden_count = 0;
  int64_t hidden_max_elements = 0;
};

std::string us(const std::optional<double>& v) {
  if (!v) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << *v;
  return os.str();
}

void print_human(std::ostream& os, const aoc::eval::CandidateReport& r) {
  os << aoc::eval::to_string(r.verdict) << "  " << (r.op.empty() ? "?" : r.op) << "  " << r.candidate_dir
     << "  [" << r.candidate_hash.substr(0, 12) << (r.from_store ? ", from store" : "") << "]\n";
  if (!r.message.empty()) os << "  " << r.message << "\n";
  // The message holds the first diagnostic and the first finding; the rest follow.
  for (size_t i = 1; i < r.diagnostics.size(); ++i) os << "  " << aoc::build::to_string(r.diagnostics[i]) << "\n";
  for (size_t i = 1; i < r.findings.size(); ++i) os << "  " << r.findings[i].message() << "\n";
  if (r.cases.empty()) return;
  os << "  " << std::left << std::setw(28) << "case" << std::setw(15) << "verdict" << std::right << std::setw(12)
     << "sim us" << std::setw(12) << "T_HW us" << "\n";
  for (const auto& c : r.cases) {
    os << "  " << std::left << std::setw(28) << c.name << std::setw(15) << aoc::eval::to_string(c.verdict)
       << std::right << std::setw(12) << us(c.sim_us) << std::setw(12) << us(c.t_hw_us);
    if (c.verdict != aoc::eval::Verdict::Ok) os << "  " << c.message;
    os << "\n";
  }
}

int run_eval(const EvalArgs& a) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::default_candidate_eval_options();
  opt.case_set = a.cases;
  opt.only_cases = a.only;
  opt.soc = a.soc;
  opt.full_simulation = a.full_sim;
  aoc::base::set_case_time_limit(opt.limits, a.timeout);
  opt.limits.address_space_bytes = static_cast<uint64_t>(a.memory_gb * double(1ull << 30));
  if (a.cases != "public" && a.cases != "hidden" && a.cases != "all") {
    std::cerr << "error: --cases " << a.cases << " is not a case set; use public, hidden or all\n";
    return 2;
  }
  if (a.cases != "public") {
    try {
      opt.hidden.seed = aoc::package::hidden_seed_from_environment();
      opt.hidden.count = a.hidden_count;
      opt.hidden.max_elements = a.hidden_max_elements;
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  try {
    opt.seed = a.seed.empty() ? aoc::eval::fresh_seed() : std::stoull(a.seed, nullptr, 0);
  } catch (const std::exception&) {
    std::cerr << "error: --seed " << a.seed << " is not a number (decimal or 0x-hex)\n";
    return 2;
  }
  if (const std::string bad = aoc::eval::temp_root_problem(opt.temp_root); !bad.empty()) {
    std::cerr << "error: " << bad << "\n";
    return 2;
  }
  if (const std::string missing = harness_missing(opt.harness); !missing.empty()) {
    std::cerr << "error: " << missing << "\n";
    return 2;
  }
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::build::Builder builder(bo);

  std::vector<fs::path> candidates;
  for (const auto& p : a.paths) {
    auto found = aoc::eval::find_candidates(p);
    if (found.empty()) {
      std::cerr << "error: " << p << " holds no candidate (a folder with candidate.toml) and no operator package "
                << "(a folder with op.toml); see docs/eval.md\n";
      return 2;
    }
    candidates.insert(candidates.end(), found.begin(), found.end());
  }

  std::unique_ptr<aoc::eval::ResultStore> store;
  if (!a.no_store && !a.full_sim) {
    const fs::path file = a.store.empty() ? bo.cache_dir / "eval-results.sqlite" : fs::path(a.store);
    try {
      store = std::make_unique<aoc::eval::ResultStore>(file);
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  aoc::eval::PoolOptions pool;
  pool.jobs = a.jobs;
  pool.store = store.get();
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  if (!a.json) std::cout << "seed 0x" << std::hex << opt.seed << std::dec << " (pass --seed to reproduce, or to resume "
                         << "an interrupted run from the store)\n";
  if (!a.json && a.cases != "public")
    std::cout << "hidden cases drawn with ASCENDOPT_HIDDEN_SEED=0x" << std::hex << opt.hidden.seed << std::dec
              << " (set it to draw the same cases again)\n";
  pool.on_done = [&](size_t done, size_t total, const aoc::eval::CandidateReport& r) {
    if (progress)
      std::cerr << "\r\033[K[" << done << "/" << total << "] " << aoc::eval::to_string(r.verdict) << " "
                << r.candidate_dir << (done == total ? "\n" : "") << std::flush;
  };
  const auto reports = aoc::eval::evaluate_candidates(candidates, builder, opt, pool);

  bool ok = true;
  nlohmann::json all = {{"seed", opt.seed}, {"soc", opt.soc}, {"cases", opt.case_set}};
  if (a.cases != "public") all["hidden_seed"] = opt.hidden.seed;
  all["candidates"] = nlohmann::json::array();
  for (const auto& r : reports) {
    ok = ok && r.verdict == aoc::eval::Verdict::Ok;
    // The package's speed: the geomean over its performance cases (docs/op-package.md).
    const aoc::eval::PerfSpeed speed = aoc::eval::perf_speed(r);
    if (a.json) {
      nlohmann::json j = aoc::eval::to_json(r);
      j["perf_geomean_us"] = speed.geomean_us ? nlohmann::json(*speed.geomean_us) : nlohmann::json(nullptr);
      j["perf_cases"] = speed.perf_cases;
      j["perf_cases_run"] = speed.perf_cases_run;
      all["candidates"].push_back(std::move(j));
    } else {
      print_human(std::cout, r);
      if (!r.cases.empty()) std::cout << "  " << aoc::eval::perf_speed_text(speed) << "\n";
    }
  }
  all["all_ok"] = ok;
  if (a.json) std::cout << all.dump(2) << "\n";
  else std::cout << (ok ? "all candidates ok" : "some candidates are not ok") << "\n";
  return ok ? 0 : 1;
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* cmd = app.add_subcommand("eval", "Evaluate candidate kernels in isolated processes: verdict, per-case "
                                             "errors, simulated times and T_HW (see docs/eval.md)");
  cmd->add_option("CANDIDATE", args->paths,
                  "Candidate folders (op_kernel/ + candidate.toml), operator packages, or folders holding them")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--jobs,-j", args->jobs, "Candidates evaluated at once (default: one per hardware thread)");
  cmd->add_option("--cases", args->cases, "Case set: public, hidden or all")->capture_default_str();
  cmd->add_option("--case", args->only, "Run only the named case(s) (results are then not stored)");
  cmd->add_flag("--json", args->json, "Print a JSON report per candidate instead of tables");
  cmd->add_option("--store", args->store, "SQLite result store (default: <cache dir>/eval-results.sqlite)");
  cmd->add_flag("--no-store", args->no_store, "Neither read nor write the result store");
  cmd->add_flag("--full-sim", args->full_sim,
                "Time every instruction, without skipping the iterations of a loop whose simulated state repeats "
                "(the reference the skipping is checked against; results are then not stored)");
  cmd->add_option("--seed", args->seed, "Input seed (default: fresh each run; printed)");
  cmd->add_option("--soc", args->soc, "SoC model for timing and the tiling platform")->capture_default_str();
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  add_case_timeout_option(cmd, args->timeout);
  cmd->add_option("--memory-gb", args->memory_gb, "Address-space limit of the kernel process, GiB")
      ->capture_default_str();
  add_hidden_draw_options(cmd, args->hidden_count, args->hidden_max_elements);
  cmd->callback([args]() { exit_status() = run_eval(*args); });
}

}  // namespace aoc::cli
