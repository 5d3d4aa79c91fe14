// `ascendopt fuzz OP_DIR`: draw cases within what the operator declares, run them with the
// simulator and the hazard checker on, shrink each distinct failure to a minimal case and print
// it as an op.toml entry (docs/fuzz.md).
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/harness_check.h"
#include "cli/rewrite_target.h"
#include "eval/candidate.h"
#include "fuzz/fuzzer.h"
#include "package/case_gen.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;

struct FuzzArgs {
  std::string op_dir;
  uint64_t seed = 1;
  double time_s = 300;
  int64_t rounds = 0;
  int64_t batch = 8;
  int64_t max_elements = 100000;
  int64_t max_shrink_runs = 200;
  std::string out;
  std::string soc = "Ascend910B1";
  std::string cache_dir;
  double timeout = aoc::base::kDefaultCaseSeconds;
  bool json = false;
};

void print_human(std::ostream& os, const aoc::fuzz::FuzzReport& r, const std::string& op_dir,
                 const std::string& declared) {
  if (!declared.empty()) os << "drawn within what " << r.op << " declares: " << declared << "\n";
  os << "fuzz " << r.op << " (seed " << r.seed << (r.resumed ? ", resumed" : "") << "): " << r.rounds << " rounds, "
     << r.cases_run << " cases, " << r.failing_cases << " failing, " << r.findings.size() << " distinct failure"
     << (r.findings.size() == 1 ? "" : "s") << ", " << static_cast<int64_t>(r.seconds) << " s\n";
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const auto& f = r.findings[i];
    os << "\nfailure " << i + 1 << ": " << f.verdict << ": " << f.message << "\n"
       << "  first seen on " << f.first_shape << "; smallest failing case " << f.minimal_shape << " ("
       << f.shrink_runs << " runs)\n";
    if (!f.reproduced) {
      os << "  not reproduced when run as the case after the public ones (it depends on the drawn inputs); "
            "the entry below is the case as drawn\n";
    } else {
      os << "  append to the [[cases]] of op.toml and run: ascendopt run " << op_dir << " --seed " << r.seed
         << " --case fuzz_1\n";
    }
    std::string entry = f.case_toml;
    for (size_t at = 0; at < entry.size();) {
      const size_t end = entry.find('\n', at);
      os << "    " << entry.substr(at, end - at) << "\n";
      at = end == std::string::npos ? entry.size() : end + 1;
    }
  }
}

int run_fuzz(const FuzzArgs& a) {
  aoc::fuzz::FuzzOptions opt;
  opt.seed = a.seed;
  opt.time_budget_s = a.time_s;
  opt.rounds = a.rounds;
  opt.batch = a.batch;
  opt.max_elements = a.max_elements;
  opt.max_shrink_runs = a.max_shrink_runs;
  opt.eval = aoc::eval::default_candidate_eval_options();
  opt.eval.soc = a.soc;
  aoc::base::set_case_time_limit(opt.eval.limits, a.timeout);
  if (const std::string bad = aoc::eval::temp_root_problem(opt.eval.temp_root); !bad.empty()) {
    std::cerr << "error: " << bad << "\n";
    return 2;
  }
  if (const std::string missing = harness_missing(opt.eval.harness); !missing.empty()) {
    std::cerr << "error: " << missing << "\n";
    return 2;
  }
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::build::Builder builder(bo);
  try {
    const aoc::eval::Candidate cand = aoc::eval::load_candidate(a.op_dir, header_hash());
    const fs::path out = a.out.empty() ? fs::path(cand.package.name + "-fuzz-s" + std::to_string(a.seed)) : fs::path(a.out);
    opt.state_file = out / "fuzz-state.json";
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    auto progress = [&](const std::string& line) {
      if (terminal) std::cerr << line << "\n";
    };
    const aoc::fuzz::FuzzReport r = aoc::fuzz::fuzz(cand, builder, opt, progress);
    if (a.json) std::cout << aoc::fuzz::to_json(r).dump(2) << "\n";
    else print_human(std::cout, r, a.op_dir, aoc::package::declared_support(cand.package.hidden));
    return r.findings.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

void add_fuzz_command(CLI::App& app) {
  auto args = std::make_shared<FuzzArgs>();
  CLI::App* cmd = app.add_subcommand(
      "fuzz", "Draw cases within what an operator declares ([hidden]), run them with the simulator and hazard "
              "checker, and shrink each distinct failure to a minimal op.toml case (see docs/fuzz.md)");
  cmd->add_option("OP_DIR", args->op_dir, "Operator package (op.toml), expert or candidate folder")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--seed", args->seed, "Seed of the draws and of the case inputs")->capture_default_str();
  cmd->add_option("--time", args->time_s, "Time budget, seconds: no round or shrink step starts after it")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--rounds", args->rounds, "Stop after this many rounds in all (0: only the time budget)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--batch", args->batch, "Cases drawn per round")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--max-elements", args->max_elements,
                  "Cap on a drawn case's first-input elements (below the package's [hidden] maximum)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-shrink-runs", args->max_shrink_runs, "Evaluations one failure may spend shrinking")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--out", args->out, "State folder; the same folder and seed resume (default: <op>-fuzz-s<seed>)");
  cmd->add_option("--soc", args->soc, "SoC model for timing, the race check and the tiling platform")
      ->capture_default_str();
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  add_case_timeout_option(cmd, args->timeout);
  cmd->add_flag("--json", args->json, "Print the report as JSON");
  cmd->callback([args]() { exit_status() = run_fuzz(*args); });
}

}  // namespace aoc::cli
