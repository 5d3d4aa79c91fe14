// `ascendopt run OP_DIR...`: build each operator (or candidate), run its cases against the
// golden reference, print verdicts, errors, simulated times and profiles. Every case runs
// as `ascendopt eval` runs it (eval/candidate_eval.h): the kernel in the sandboxed harness,
// the golden and InferShape in contained children, so nothing a kernel does stops `run`.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/harness_check.h"
#include "cli/report_format.h"
#include "eval/candidate.h"
#include "eval/eval_pool.h"
#include "eval/seed.h"
#include "package/case_gen.h"
#include "package/op_package.h"
#include "sim/profile.h"

namespace aoc::cli {

int& exit_status() {
  static int status = 0;
  return status;
}

namespace {

std::string hex_string(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

struct RunArgs {
  std::vector<std::string> dirs;
  std::string soc = "Ascend910B1";
  std::string cases = "public";
  std::vector<std::string> only;
  std::string seed;
  std::string cache_dir;
  bool json = false;
  bool no_sim = false;
  bool full_sim = false;
  std::string trace_file;  // Chrome/Perfetto trace of one case
  std::string csv_dir;     // op_summary and PipeUtilization CSVs per case
  double timeout = aoc::base::kDefaultCaseSeconds;  // wall-clock seconds per case
  double memory_gb = 8;    // address-space limit of the kernel process
  int64_t hidden_count = 0;         // hidden cases drawn; 0: the package's [hidden] count
  int64_t hidden_max_elements = 0;  // 0: no cap below the package's own
};

// msprof-like CSVs of every simulated case: DIR/<op>/<case>/{op_summary,PipeUtilization}.csv.
// Returns an error message, empty on success.
std::string write_csvs(const std::filesystem::path& dir, const aoc::eval::CandidateReport& rep) {
  for (const auto& c : rep.cases) {
    if (!c.sim_profile) continue;
    const std::filesystem::path d = dir / rep.op / c.name;
    std::error_code ec;
    std::filesystem::create_directories(d, ec);
    if (ec) return "cannot create " + d.string() + ": " + ec.message() + " (pass a writable --csv folder)";
    std::ofstream summary(d / "op_summary.csv"), pipes(d / "PipeUtilization.csv");
    if (!summary || !pipes) return "cannot write CSV files in " + d.string();
    aoc::sim::write_op_summary_csv(summary, *c.sim_profile, rep.op);
    aoc::sim::write_pipe_utilization_csv(pipes, *c.sim_profile);
  }
  return "";
}

// Why the options cannot work, or "".
std::string bad_options(const RunArgs& a, const aoc::eval::CandidateEvalOptions& opt) {
  if (!(a.timeout > 0)) return "--timeout must be a positive number of seconds";
  if (!(a.memory_gb > 0)) return "--memory-gb must be a positive number of GiB";
  if (a.no_sim && (!a.trace_file.empty() || !a.csv_dir.empty())) return "--trace and --csv need the simulator; drop --no-sim";
  if (const std::string bad = aoc::eval::temp_root_problem(opt.temp_root); !bad.empty()) return bad;
  if (std::string missing = harness_missing(opt.harness); !missing.empty()) return missing;
  if (!a.trace_file.empty() && !std::ofstream(a.trace_file))
    return "cannot write the trace file " + a.trace_file + "; pass a writable path to --trace";
  return "";
}

int run(const RunArgs& a) {
  const auto case_set = aoc::package::parse_case_set(a.cases);
  if (!case_set) {
    std::cerr << "error: --cases " << a.cases << " is not a case set; use public, hidden or all\n";
    return 2;
  }
  aoc::eval::CandidateEvalOptions opt = aoc::eval::default_candidate_eval_options();
  opt.soc = a.no_sim ? "" : a.soc;
  opt.full_simulation = a.full_sim;
  opt.case_set = a.cases;
  opt.only_cases = a.only;
  aoc::base::set_case_time_limit(opt.limits, a.timeout);
  opt.limits.address_space_bytes = static_cast<uint64_t>(a.memory_gb * double(1ull << 30));
  try {
    if (*case_set != aoc::package::CaseSet::Public) opt.hidden.seed = aoc::package::hidden_seed_from_environment();
    opt.hidden.count = a.hidden_count;
    opt.hidden.max_elements = a.hidden_max_elements;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  try {
    opt.seed = a.seed.empty() ? aoc::eval::fresh_seed() : std::stoull(a.seed, nullptr, 0);
  } catch (const std::exception&) {
    std::cerr << "error: --seed " << a.seed << " is not a number (decimal or 0x-hex)\n";
    return 2;
  }
  if (const std::string bad = bad_options(a, opt); !bad.empty()) {
    std::cerr << "error: " << bad << "\n";
    return 2;
  }
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::build::Builder builder(bo);

  std::vector<std::filesystem::path> packages;
  for (const auto& d : a.dirs) {
    auto found = aoc::eval::find_candidates(d);
    if (found.empty()) {
      std::cerr << "error: " << d << " holds no operator package (a folder with op.toml) and no candidate (a folder "
                << "with candidate.toml); pass an operator folder such as ops/elementwise/add or a suite root such "
                << "as ops/\n";
      return 2;
    }
    packages.insert(packages.end(), found.begin(), found.end());
  }

  nlohmann::json all = nlohmann::json::object();
  all["seed"] = opt.seed;
  if (*case_set != aoc::package::CaseSet::Public) all["hidden_seed"] = opt.hidden.seed;
  all["ops"] = nlohmann::json::array();
  bool ok = true;
  for (const auto& dir : packages) {
    // The trace is of one case: the first --case, else the first case of the first operator.
    aoc::eval::CandidateEvalOptions op_opt = opt;
    if (!a.trace_file.empty() && &dir == &packages.front()) {
      op_opt.chrome_trace_path = a.trace_file;
      op_opt.chrome_trace_case = a.only.empty() ? "" : a.only.front();
      if (op_opt.chrome_trace_case.empty()) {
        try {
          const auto p = aoc::package::with_case_set(aoc::eval::load_candidate(dir, "").package, *case_set, opt.hidden);
          if (!p.cases.empty()) op_opt.chrome_trace_case = p.cases.front().name;
        } catch (const std::exception&) {
          // The evaluation below reports what is wrong with the folder.
        }
      }
    }
    aoc::eval::PoolOptions pool;
    pool.jobs = 1;
    const aoc::eval::CandidateReport rep = aoc::eval::evaluate_candidates({dir}, builder, op_opt, pool).front();
    if (!a.csv_dir.empty()) {
      const std::string err = write_csvs(a.csv_dir, rep);
      if (!err.empty()) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
    }
    ok = ok && rep.verdict == aoc::eval::Verdict::Ok;
    if (a.json) all["ops"].push_back(report_to_json(rep));
    else {
      print_report_table(std::cout, rep);
      print_profile_table(std::cout, rep);
      std::cout << "\n";
    }
  }
  all["passed"] = ok;
  if (a.json) std::cout << all.dump(2) << "\n";
  else std::cout << (ok ? "all operators passed" : "some operators FAILED") << " (rerun with --seed 0x" << std::hex
                 << opt.seed << std::dec << " to reproduce these inputs"
                 << (*case_set != aoc::package::CaseSet::Public
                         ? " and ASCENDOPT_HIDDEN_SEED=" + hex_string(opt.hidden.seed) + " to redraw these hidden cases"
                         : std::string())
                 << ")\n";
  return ok ? 0 : 1;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Build operators, run their cases in the sandbox against the golden "
                                            "reference, and report verdicts, simulated times and profiles");
  cmd->add_option("OP_DIR", args->dirs,
                  "Operator package folders, candidate folders, or suite roots searched for op.toml")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--soc", args->soc, "SoC model for the simulator and the tiling platform")
      ->capture_default_str();
  cmd->add_option("--cases", args->cases, "Which cases to run: public, hidden (drawn with $ASCENDOPT_HIDDEN_SEED or a fresh seed) or all")->capture_default_str();
  cmd->add_option("--case", args->only, "Run only the named case(s)");
  cmd->add_option("--seed", args->seed, "Input seed (default: fresh each run; printed for reproduction)");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_flag("--json", args->json, "Print a JSON report instead of tables");
  cmd->add_option("--timeout", args->timeout, "Wall-clock limit per case, seconds (a kernel still running is "
                  "killed: verdict timeout)")->capture_default_str();
  cmd->add_option("--memory-gb", args->memory_gb, "Address-space limit of the kernel process, GiB")
      ->capture_default_str();
  add_hidden_draw_options(cmd, args->hidden_count, args->hidden_max_elements);
  cmd->add_flag("--no-sim", args->no_sim, "Skip the performance simulator (correctness only)");
  cmd->add_flag("--full-sim", args->full_sim,
                "Time every instruction, without skipping the iterations of a loop whose simulated state repeats");
  cmd->add_option("--trace", args->trace_file,
                  "Write the Chrome/Perfetto trace of one case (the first --case, else the first case) to FILE");
  cmd->add_option("--csv", args->csv_dir, "Write op_summary.csv and PipeUtilization.csv per case under DIR/<op>/<case>/");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
