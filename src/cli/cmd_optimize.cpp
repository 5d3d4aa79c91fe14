// `ascendopt optimize OP_DIR --budget N`: the main job. Host search and kernel rewriting
// alternate under one budget of evaluations (or another method, --method), the best variant
// is verified and written with its diff, lineage and report. See docs/optimize.md.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/harness_check.h"
#include "cli/llm_flags.h"
#include "cli/public_flags.h"
#include "optimize/run.h"
#include "search/methods.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;

// The methods with their descriptions, and which of them ask a model, from the registry.
std::string methods_footer() {
  std::string text = "Methods:\n";
  std::vector<std::string> model;
  for (const auto& m : aoc::search::methods()) {
    text += "  " + m.name + std::string(m.name.size() < 14 ? 14 - m.name.size() : 1, ' ') + m.description + "\n";
    if (m.uses_model) model.push_back(m.name);
  }
  text += "With --llm-config the methods";
  for (size_t i = 0; i < model.size(); ++i)
    text += (i == 0 ? " " : i + 1 == model.size() ? " and " : ", ") + model[i];
  return text + " also ask the model for kernels (docs/llm.md, \"Optimizing with an LLM\"); without it no model is used.";
}

struct OptimizeArgs {
  std::string op_dir;
  size_t budget = 16;
  uint64_t seed = 1;
  std::string method = "optimize";
  std::string out;
  std::string soc = "Ascend910B1";
  std::vector<std::string> cases;
  int64_t max_elements = 65536;
  std::string store;
  bool no_store = false;
  std::string cache_dir;
  std::string bank;
  double timeout = aoc::base::kDefaultCaseSeconds;
  bool json = false;
  LlmFlags llm;
  std::string set, op;  // a public set and the package of it to optimize (docs/public-set.md)
  PublicFlags public_flags;
};

// The package to optimize: OP_DIR, or the package --op of the public set --set (exported first
// when missing). Empty, with the error printed, when there is none.
fs::path package_dir(const OptimizeArgs& a) {
  if (a.set.empty() != a.op.empty() || a.set.empty() == a.op_dir.empty()) {
    std::cerr << "error: name the package as OP_DIR, or as --set SET --op NAME for a package of a public set "
                 "(docs/public-set.md)\n";
    return {};
  }
  if (a.set.empty()) {
    if (fs::is_directory(a.op_dir)) return a.op_dir;
    std::cerr << "error: OP_DIR " << a.op_dir << ": no such folder\n";
    return {};
  }
  PublicFlags pf = a.public_flags;
  pf.cache_dir = a.cache_dir;
  try {
    const auto set = resolve_public_set(a.set, pf, a.op);
    for (const auto& p : set.packages)
      if (p.filename() == a.op) return p;
    for (const auto& sk : set.skipped)
      if (sk.package == a.op) {
        std::cerr << "error: " << a.op << " of the set " << a.set << " has no usable package (" << sk.reason << ")\n";
        return {};
      }
    std::cerr << "error: the set " << a.set << " has no package " << a.op
              << " (`ascendopt public export --json` lists the packages of the project's manifests)\n";
  } catch (const std::exception& e) {
    std::cerr << "error: --set " << a.set << ": " << e.what() << "\n";
  }
  return {};
}

int run_optimize(const OptimizeArgs& a) {
  aoc::optimize::OptimizeOptions o;
  o.method = aoc::search::find_method(a.method);
  if (!o.method) {
    std::cerr << "error: --method " << a.method << " is not a method; use " << aoc::search::method_names() << "\n";
    return 2;
  }
  const fs::path op_dir = package_dir(a);
  if (op_dir.empty()) return 2;
  o.budget = a.budget;
  o.seed = a.seed;
  o.soc = a.soc;
  o.cases = a.cases;
  o.max_case_elements = a.max_elements;
  o.eval = aoc::eval::default_candidate_eval_options();
  aoc::base::set_case_time_limit(o.eval.limits, a.timeout);
  if (const std::string missing = harness_missing(o.eval.harness); !missing.empty()) {
    std::cerr << "error: " << missing << "\n";
    return 2;
  }
  if (const std::string why = aoc::eval::temp_root_problem(o.eval.temp_root); !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return 2;
  }
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  fs::path normal = op_dir.lexically_normal();
  if (normal.filename().empty()) normal = normal.parent_path();
  const std::string op_name = normal.filename().string();
  o.out_dir = a.out.empty() ? fs::path(op_name + "-" + a.method + "-s" + std::to_string(a.seed)) : fs::path(a.out);
  if (a.llm.any()) {
    if (!a.llm.wanted()) {
      std::cerr << "error: the --llm-* flags need --llm-config FILE (or --llm-base-url and --llm-model); see "
                   "docs/llm.md\n";
      return 2;
    }
    try {
      o.llm = resolve_llm_options(a.llm, bo.cache_dir);
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  o.bank_file = a.bank;
  if (!a.no_store) o.store_file = a.store.empty() ? bo.cache_dir / "eval-results.sqlite" : fs::path(a.store);
  const bool tty = ::isatty(STDERR_FILENO);
  if (tty) {
    o.progress = [](const aoc::search::Scored& s, size_t budget) {
      std::cerr << "\r\033[K[" << s.spent << "/" << budget << "] "
                << (s.eval.valid ? std::to_string(s.eval.time_us) + " us" : s.verdict)
                << (s.from_store ? " (stored)" : "") << "  " << s.origin.substr(0, 90) << std::flush;
    };
    o.log = [](const std::string& line) { std::cerr << "\r\033[K" << line << "\n"; };
  }
  aoc::build::Builder builder(bo);
  try {
    const auto r = aoc::optimize::optimize(op_dir, builder, o);
    if (tty) std::cerr << "\r\033[K";
    if (a.json) std::cout << aoc::optimize::to_json(r).dump(2) << "\n";
    else std::cout << aoc::optimize::summary_text(r) << "written: " << o.out_dir.string()
                   << "/{best/, best.diff, report.json, summary.txt}\n";
    return r.verified ? 0 : 1;
  } catch (const aoc::optimize::OptimizeError& e) {
    if (tty) std::cerr << "\r\033[K";
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

void add_optimize_command(CLI::App& app) {
  auto args = std::make_shared<OptimizeArgs>();
  CLI::App* cmd = app.add_subcommand("optimize", "Make an operator faster: host tiling search, kernel motif rewrites "
                                                 "and, with --llm-config, LLM-written kernels under one evaluation "
                                                 "budget, verified (docs/optimize.md)");
  cmd->add_option("OP_DIR", args->op_dir, "Operator package (op.toml) or candidate folder");
  cmd->add_option("--set", args->set, "Instead of OP_DIR, the package --op of this public set: public[:train|:test] or "
                                      "a manifest file or folder (docs/public-set.md)");
  cmd->add_option("--op", args->op, "With --set: the package name");
  add_public_flags(cmd, args->public_flags, false);
  cmd->add_option("--budget", args->budget, "Evaluations (the baseline is the first)")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the search and of the case inputs")->capture_default_str();
  cmd->add_option("--method", args->method, aoc::search::method_names())->capture_default_str();
  cmd->add_option("--out", args->out, "Run folder (default: <op>-<method>-s<seed>); the same folder resumes a run");
  cmd->add_option("--soc", args->soc, "SoC model")->capture_default_str();
  cmd->add_option("--case", args->cases, "Evaluate on these public cases (default: the performance cases, see --max-elements)");
  cmd->add_option("--max-elements", args->max_elements,
                  "Default cases: the performance cases with at most this many input elements (the smallest when none is; a package without performance cases: the largest case of each dtype)")
      ->capture_default_str();
  cmd->add_option("--store", args->store, "Result store (default: <cache dir>/eval-results.sqlite)");
  cmd->add_flag("--no-store", args->no_store, "Neither read nor write the result store (no resume)");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  add_case_timeout_option(cmd, args->timeout);
  cmd->add_option("--bank", args->bank,
                  "Experience bank (docs/bank.md): kernel motifs are tried in the bank's order for the kernel "
                  "(default: random order)");
  cmd->add_flag("--json", args->json, "Print the JSON report");
  add_llm_flags(cmd, args->llm);
  cmd->footer(methods_footer());
  cmd->callback([args]() { exit_status() = run_optimize(*args); });
}

}  // namespace aoc::cli
