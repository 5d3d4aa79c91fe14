// `ascendopt run OP_DIR...`: build each operator, run its public cases against the
// golden reference, print verdicts, errors and simulated times.
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/report_format.h"
#include "eval/evaluator.h"
#include "ops/op_package.h"

namespace aoc::cli {

int& exit_status() {
  static int status = 0;
  return status;
}

namespace {

struct RunArgs {
  std::vector<std::string> dirs;
  std::string soc = "Ascend910B1";
  std::string cases = "public";
  std::vector<std::string> only;
  std::string seed;
  std::string cache_dir;
  bool json = false;
  bool no_sim = false;
};

int run(const RunArgs& a) {
  if (a.cases != "public") {
    std::cerr << "error: --cases " << a.cases << " is not available; use --cases public\n";
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
  all["ops"] = nlohmann::json::array();
  bool ok = true;
  for (const auto& dir : packages) {
    aoc::op::OpPackage p;
    try {
      p = aoc::op::load_op_package(dir);
    } catch (const aoc::op::PackageError& e) {
      ok = false;
      if (a.json) all["ops"].push_back({{"dir", dir.string()}, {"passed", false}, {"setup_error", e.what()}});
      else std::cout << "error: " << e.what() << "\n\n";
      continue;
    }
    aoc::eval::OpReport rep = aoc::eval::evaluate_package(p, builder, opt);
    ok = ok && rep.passed();
    if (a.json) all["ops"].push_back(report_to_json(rep));
    else {
      print_report_table(std::cout, rep);
      std::cout << "\n";
    }
  }
  all["passed"] = ok;
  if (a.json) std::cout << all.dump(2) << "\n";
  else std::cout << (ok ? "all operators passed" : "some operators FAILED") << " (rerun with --seed 0x" << std::hex
                 << opt.seed << std::dec << " to reproduce these inputs)\n";
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
  cmd->add_option("--cases", args->cases, "Which cases to run: public")->capture_default_str();
  cmd->add_option("--case", args->only, "Run only the named case(s)");
  cmd->add_option("--seed", args->seed, "Input seed (default: fresh each run; printed for reproduction)");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_flag("--json", args->json, "Print a JSON report instead of tables");
  cmd->add_flag("--no-sim", args->no_sim, "Skip the performance simulator (correctness only)");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
