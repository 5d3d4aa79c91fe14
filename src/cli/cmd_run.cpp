// `ascendopt run OP_DIR...`: build each operator, run its public cases against the
// golden reference, print verdicts, errors and simulated times.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/report_format.h"
#include "eval/evaluator.h"
#include "ops/case_gen.h"
#include "ops/op_package.h"
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
  std::string trace_file;  // Chrome/Perfetto trace of one case
  std::string csv_dir;     // op_summary and PipeUtilization CSVs per case
};

// msprof-like CSVs of every simulated case: DIR/<op>/<case>/{op_summary,PipeUtilization}.csv.
// Returns an error message, empty on success.
std::string write_csvs(const std::filesystem::path& dir, const aoc::eval::OpReport& rep) {
  for (const auto& c : rep.cases) {
    if (!c.profile) continue;
    const std::filesystem::path d = dir / rep.op / c.name;
    std::error_code ec;
    std::filesystem::create_directories(d, ec);
    if (ec) return "cannot create " + d.string() + ": " + ec.message() + " (pass a writable --csv folder)";
    std::ofstream summary(d / "op_summary.csv"), pipes(d / "PipeUtilization.csv");
    if (!summary || !pipes) return "cannot write CSV files in " + d.string();
    aoc::sim::write_op_summary_csv(summary, *c.profile, rep.op);
    aoc::sim::write_pipe_utilization_csv(pipes, *c.profile);
  }
  return "";
}

int run(const RunArgs& a) {
  const auto case_set = aoc::op::parse_case_set(a.cases);
  if (!case_set) {
    std::cerr << "error: --cases " << a.cases << " is not a case set; use public, hidden or all\n";
    return 2;
  }
  aoc::op::HiddenDraw draw;
  try {
    if (*case_set != aoc::op::CaseSet::Public) draw.seed = aoc::op::hidden_seed_from_environment();
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  aoc::eval::EvalOptions opt;
  opt.soc = a.no_sim ? "" : a.soc;
  opt.only_cases = a.only;
  try {
    opt.seed = a.seed.empty() ? aoc::eval::fresh_seed() : std::stoull(a.seed, nullptr, 0);
  } catch (const std::exception&) {
    std::cerr << "error: --seed " << a.seed << " is not a number (decimal or 0x-hex)\n";
    return 2;
  }
  if (a.no_sim && (!a.trace_file.empty() || !a.csv_dir.empty())) {
    std::cerr << "error: --trace and --csv need the simulator; drop --no-sim\n";
    return 2;
  }
  aoc::eval::BuilderOptions bo = aoc::eval::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::eval::Builder builder(bo);

  std::vector<std::filesystem::path> packages;
  for (const auto& d : a.dirs) {
    auto found = aoc::op::find_op_packages(d);
    if (found.empty()) {
      std::cerr << "error: " << d << " holds no operator package (a folder with op.toml); "
                << "pass an operator folder such as ops/elementwise/add or a suite root such as ops/\n";
      return 2;
    }
    packages.insert(packages.end(), found.begin(), found.end());
  }

  nlohmann::json all = nlohmann::json::object();
  all["seed"] = opt.seed;
  if (*case_set != aoc::op::CaseSet::Public) all["hidden_seed"] = draw.seed;
  all["ops"] = nlohmann::json::array();
  bool ok = true;
  for (const auto& dir : packages) {
    aoc::op::OpPackage p;
    try {
      p = aoc::op::with_case_set(aoc::op::load_op_package(dir), *case_set, draw);
    } catch (const aoc::op::PackageError& e) {
      ok = false;
      if (a.json) all["ops"].push_back({{"dir", dir.string()}, {"passed", false}, {"setup_error", e.what()}});
      else std::cout << "error: " << e.what() << "\n\n";
      continue;
    }
    // The trace is of one case: the first --case, else the first case of the first operator.
    aoc::eval::EvalOptions op_opt = opt;
    if (!a.trace_file.empty() && &dir == &packages.front()) {
      op_opt.chrome_trace_path = a.trace_file;
      op_opt.chrome_trace_case = !a.only.empty() ? a.only.front() : p.cases.empty() ? "" : p.cases.front().name;
    }
    aoc::eval::OpReport rep = aoc::eval::evaluate_package(p, builder, op_opt);
    if (!a.csv_dir.empty()) {
      const std::string err = write_csvs(a.csv_dir, rep);
      if (!err.empty()) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
    }
    ok = ok && rep.passed();
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
                 << (*case_set != aoc::op::CaseSet::Public
                         ? " and ASCENDOPT_HIDDEN_SEED=" + hex_string(draw.seed) + " to redraw these hidden cases"
                         : std::string())
                 << ")\n";
  return ok ? 0 : 1;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Build operators, run their cases on the CPU against the golden "
                                            "reference, and report verdicts and simulated times");
  cmd->add_option("OP_DIR", args->dirs, "Operator package folders, or suite roots searched for op.toml")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--soc", args->soc, "SoC model for the simulator and the tiling platform")
      ->capture_default_str();
  cmd->add_option("--cases", args->cases, "Which cases to run: public, hidden (drawn with $ASCENDOPT_HIDDEN_SEED or a fresh seed) or all")->capture_default_str();
  cmd->add_option("--case", args->only, "Run only the named case(s)");
  cmd->add_option("--seed", args->seed, "Input seed (default: fresh each run; printed for reproduction)");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_flag("--json", args->json, "Print a JSON report instead of tables");
  cmd->add_flag("--no-sim", args->no_sim, "Skip the performance simulator (correctness only)");
  cmd->add_option("--trace", args->trace_file,
                  "Write the Chrome/Perfetto trace of one case (the first --case, else the first case) to FILE");
  cmd->add_option("--csv", args->csv_dir, "Write op_summary.csv and PipeUtilization.csv per case under DIR/<op>/<case>/");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
