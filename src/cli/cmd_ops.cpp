// `ascendopt ops list [ROOT] [--check] [--times] [--json|--markdown]`: the operator packages
// of a suite; with --check what their public cases lack against the case rules
// (evaluation.md section 4) and the performance-case rules (package/perf_cases.h); with
// --times the per-operator figures of docs/ops.md, measured
// by evaluating each package (and its expert/ folder) on its public cases in isolated
// children, in parallel over packages: correct on every public case, timed (the package's
// speed) over its performance cases.
#include <unistd.h>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "build/builder.h"
#include "cli/commands.h"
#include "cli/harness_check.h"
#include "cli/number_format.h"
#include "eval/eval_pool.h"
#include "eval/op_times.h"
#include "eval/report_perf.h"
#include "package/case_gen.h"
#include "package/op_package.h"
#include "package/perf_cases.h"

namespace aoc::cli {
namespace {
namespace fs = std::filesystem;
using aoc::eval::TimeSummary;

struct ListArgs {
  std::string root;
  bool json = false, markdown = false, check = false, times = false;
  size_t jobs = 0;
  std::string seed = "1";
  std::string soc = "Ascend910B1";
  double timeout = 300;
  std::string cache_dir;
};

struct Entry {
  fs::path dir;
  std::optional<aoc::package::OpPackage> package;
  std::string load_error;
  std::vector<std::string> problems;
  std::optional<TimeSummary> baseline, expert;  // --times
};

std::optional<double> speedup(const Entry& e) {
  if (!e.baseline || !e.expert || !e.baseline->us || !e.expert->us) return std::nullopt;
  return *e.baseline->us / *e.expert->us;
}

bool summary_ok(const std::optional<TimeSummary>& s) { return !s || s->verdict == aoc::eval::Verdict::Ok; }

// A time cell: the geomean, or the verdict when the candidate has no time.
std::string time_cell(const std::optional<TimeSummary>& s) {
  if (!s) return "-";
  if (s->us && s->verdict == aoc::eval::Verdict::Ok) return fixed(s->us);
  if (s->us) return fixed(s->us) + " (" + aoc::eval::to_string(s->verdict) + ")";
  return aoc::eval::to_string(s->verdict);
}

nlohmann::json summary_json(const std::optional<TimeSummary>& s) {
  if (!s) return nullptr;
  auto opt = [](const std::optional<double>& v) -> nlohmann::json { return v ? nlohmann::json(*v) : nullptr; };
  return {{"verdict", aoc::eval::to_string(s->verdict)}, {"message", s->message}, {"cases", s->cases},
          {"geomean_us", opt(s->us)}, {"geomean_t_hw_us", opt(s->t_hw_us)}, {"bound", s->bound}};
}

// Evaluates every loaded package and its expert on the public cases; fills the summaries.
int measure(std::vector<Entry>& entries, const ListArgs& a, uint64_t seed) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::default_candidate_eval_options();
  opt.seed = seed;
  opt.soc = a.soc;
  opt.case_set = "public";
  aoc::base::set_case_time_limit(opt.limits, a.timeout);
  if (const std::string missing = harness_missing(opt.harness); !missing.empty()) {
    std::cerr << "error: " << missing << "\n";
    return 2;
  }
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::build::Builder builder(bo);

  std::vector<fs::path> candidates;
  std::vector<std::pair<size_t, bool>> owner;  // entry index, is expert
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].package) continue;
    candidates.push_back(entries[i].dir);
    owner.emplace_back(i, false);
    if (auto e = aoc::eval::expert_folder(entries[i].dir)) {
      candidates.push_back(*e);
      owner.emplace_back(i, true);
    }
  }
  aoc::eval::PoolOptions pool;
  pool.jobs = a.jobs;
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  pool.on_done = [&](size_t done, size_t total, const aoc::eval::CandidateReport& r) {
    if (progress)
      std::cerr << "\r\033[K[" << done << "/" << total << "] " << aoc::eval::to_string(r.verdict) << " "
                << r.candidate_dir << (done == total ? "\n" : "") << std::flush;
  };
  const auto reports = aoc::eval::evaluate_candidates(candidates, builder, opt, pool);
  for (size_t k = 0; k < reports.size(); ++k) {
    Entry& e = entries[owner[k].first];
    // Correctness over every public case (the verdict), times over the performance cases: the
    // package's speed. A package without performance cases is timed over all its public cases.
    auto perf = aoc::eval::perf_case_names(*e.package);
    (owner[k].second ? e.expert : e.baseline) = aoc::eval::summarise_times(reports[k], perf);
  }
  return 0;
}

void print_table(const std::vector<Entry>& entries, bool times) {
  std::cout << std::left << std::setw(15) << "category" << ' ' << std::setw(19) << "name" << ' ' << std::setw(31)
            << "dtypes" << ' ' << std::setw(5) << "cases" << ' ' << std::setw(4) << "perf";
  if (times)
    std::cout << std::right << std::setw(12) << "base us" << std::setw(12) << "expert us" << std::setw(9) << "speedup"
              << std::setw(11) << "T_HW us" << "  " << std::left << std::setw(9) << "bound";
  std::cout << " folder\n";
  for (const auto& e : entries) {
    if (!e.package) {
      std::cout << "error: " << e.load_error << "\n";
      continue;
    }
    const auto& p = *e.package;
    std::string variants;
    for (size_t v = 0; v < p.variant_count(); ++v) variants += (v ? " " : "") + p.variant_label(v);
    std::cout << std::left << std::setw(15) << p.category << ' ' << std::setw(19) << p.name << ' ' << std::setw(31)
              << variants << ' ' << std::setw(5) << p.cases.size() << ' ' << std::setw(4)
              << aoc::package::perf_case_indices(p).size();
    if (times) {
      const auto sp = speedup(e);
      std::cout << std::right << std::setw(12) << time_cell(e.baseline) << std::setw(12) << time_cell(e.expert)
                << std::setw(9) << (sp ? fixed(sp) + "x" : "-") << std::setw(11) << fixed(e.baseline->t_hw_us, 3)
                << "  " << std::left << std::setw(9) << (e.baseline->bound.empty() ? "-" : e.baseline->bound);
    }
    std::cout << ' ' << e.dir.string() << "\n";
    if (const std::string declared = aoc::package::declared_support(p.hidden); !declared.empty())
      std::cout << "    supports: " << declared << "\n";
    for (const auto& problem : e.problems) std::cout << "    rule: " << problem << "\n";
    if (times && !summary_ok(e.baseline))
      std::cout << "    baseline " << aoc::eval::to_string(e.baseline->verdict) << ": " << e.baseline->message << "\n";
    if (times && !summary_ok(e.expert))
      std::cout << "    expert " << aoc::eval::to_string(e.expert->verdict) << ": " << e.expert->message << "\n";
  }
}

// The docs/ops.md table (scripts/gen-ops-doc.sh adds the page's header).
void print_markdown(const std::vector<Entry>& entries) {
  std::cout << "| operator | category | dtypes | cases | perf | baseline us | expert us | speedup | T_HW us | bound |\n"
            << "|---|---|---|--:|--:|--:|--:|--:|--:|---|\n";
  for (const auto& e : entries) {
    if (!e.package) {
      std::cout << "| " << e.dir.filename().string() << " | | load error | | | | | | | |\n";
      continue;
    }
    const auto& p = *e.package;
    std::string variants;
    for (size_t v = 0; v < p.variant_count(); ++v) variants += (v ? ", " : "") + p.variant_label(v);
    const auto sp = speedup(e);
    std::cout << "| " << p.name << " | " << p.category << " | " << variants << " | " << p.cases.size() << " | "
              << aoc::package::perf_case_indices(p).size() << " | " << time_cell(e.baseline) << " | " << time_cell(e.expert) << " | " << (sp ? fixed(sp) + "x" : "-")
              << " | " << fixed(e.baseline->t_hw_us, 3) << " | " << (e.baseline->bound.empty() ? "-" : e.baseline->bound)
              << " |\n";
  }
}

void print_json(const std::vector<Entry>& entries, bool check, bool times, uint64_t seed, const std::string& soc) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& e : entries) {
    if (!e.package) {
      j.push_back({{"dir", e.dir.string()}, {"error", e.load_error}});
      continue;
    }
    const auto& p = *e.package;
    std::string variants;
    for (size_t v = 0; v < p.variant_count(); ++v) variants += (v ? " " : "") + p.variant_label(v);
    j.push_back({{"name", p.name}, {"category", p.category}, {"op_type", p.op_type}, {"kernel", p.kernel},
                 {"dtypes", variants}, {"cases", p.cases.size()}, {"perf_cases", aoc::package::perf_case_indices(p).size()},
                 {"dir", e.dir.string()}});
    if (check) j.back()["case_rule_problems"] = e.problems;
    if (times) {
      const auto sp = speedup(e);
      j.back()["times"] = {{"seed", seed}, {"soc", soc}, {"case_set", "public"}, {"timed_over", "performance cases"},
                           {"baseline", summary_json(e.baseline)}, {"expert", summary_json(e.expert)},
                           {"speedup", sp ? nlohmann::json(*sp) : nlohmann::json(nullptr)}};
    }
  }
  std::cout << j.dump(2) << "\n";
}

int list_ops(const ListArgs& a) {
  if (a.json && a.markdown) {
    std::cerr << "error: --json and --markdown are exclusive; pick one output format\n";
    return 2;
  }
  const bool times = a.times || a.markdown;
  uint64_t seed = 0;
  try {
    seed = std::stoull(a.seed, nullptr, 0);
  } catch (const std::exception&) {
    std::cerr << "error: --seed " << a.seed << " is not a number (decimal or 0x-hex)\n";
    return 2;
  }
  const fs::path root = a.root.empty() ? aoc::build::default_builder_options().root / "ops" : fs::path(a.root);
  const auto dirs = aoc::package::find_op_packages(root);
  if (dirs.empty()) {
    std::cerr << "error: no operator packages (folders with op.toml) under " << root.string() << "\n";
    return 1;
  }
  std::vector<Entry> entries;
  int status = 0;
  for (const auto& d : dirs) {
    Entry e;
    e.dir = d;
    try {
      e.package = aoc::package::load_op_package(d);
      if (a.check) {
        e.problems = aoc::package::validate_public_cases(*e.package);
        for (auto& problem : aoc::package::validate_perf_cases(*e.package)) e.problems.push_back(std::move(problem));
      }
    } catch (const aoc::package::PackageError& err) {
      e.load_error = err.what();
    }
    if (!e.package || !e.problems.empty()) status = 1;
    entries.push_back(std::move(e));
  }
  if (times) {
    if (const int rc = measure(entries, a, seed); rc != 0) return rc;
    for (const auto& e : entries)
      if (!summary_ok(e.baseline) || !summary_ok(e.expert)) status = 1;
  }
  if (a.json) print_json(entries, a.check, times, seed, a.soc);
  else if (a.markdown) print_markdown(entries);
  else print_table(entries, times);
  return status;
}

}  // namespace

void add_ops_command(CLI::App& app) {
  CLI::App* ops = app.add_subcommand("ops", "Inspect the operator suite");
  ops->require_subcommand(1);
  CLI::App* list = ops->add_subcommand("list", "List operator packages with their dtypes and case counts (and, with "
                                               "--times, their simulated times; see docs/ops.md)");
  auto a = std::make_shared<ListArgs>();
  list->add_option("ROOT", a->root, "Suite root (default: the project's ops/)");
  list->add_flag("--json", a->json, "Print JSON");
  list->add_flag("--markdown", a->markdown, "Print the docs/ops.md table (implies --times)");
  list->add_flag("--check", a->check,
                 "Also check each package's public cases against the case rules and its performance cases "
                 "(at least 4 with a source, each within 256 KB..256 MB of data, spanning 4x); exit 1 when any "
                 "rule is unmet");
  list->add_flag("--times", a->times,
                 "Evaluate each package and its expert/ on the public cases (the verdict) and give the package's "
                 "speed: geomean simulated time over its performance cases, with T_HW and bound unit over the same; "
                 "exit 1 when any is not ok");
  list->add_option("--jobs,-j", a->jobs, "Candidates evaluated at once with --times (default: one per hardware thread)");
  list->add_option("--seed", a->seed, "Input seed of --times (decimal or 0x-hex)")->capture_default_str();
  list->add_option("--soc", a->soc, "SoC model for --times")->capture_default_str();
  add_case_timeout_option(list, a->timeout, "Wall-clock limit per case with --times, seconds");
  list->add_option("--cache-dir", a->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  list->callback([a]() { exit_status() = list_ops(*a); });
}

}  // namespace aoc::cli
