#include "bench/run.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "bench/metrics.h"
#include "eval/candidate.h"
#include "eval/result_store.h"
#include "package/op_package.h"

namespace aoc::bench {
namespace fs = std::filesystem;

std::string BenchRun::name() const {
  return op + "-" + method + "-b" + std::to_string(budget) + "-s" + std::to_string(seed);
}

std::pair<std::string, bool> split_bank_method(const std::string& bench_method) {
  static const std::string suffix = "@bank";
  if (bench_method.size() > suffix.size() && bench_method.ends_with(suffix))
    return {bench_method.substr(0, bench_method.size() - suffix.size()), true};
  return {bench_method, false};
}

std::string run_label(const fs::path& dir) {
  return aoc::eval::is_expert_folder(dir) ? dir.parent_path().filename().string() + "-expert" : dir.filename().string();
}

std::vector<BenchRun> bench_runs(const BenchOptions& o) {
  std::vector<BenchRun> out;
  for (const auto& dir : o.ops)
    for (const auto& m : o.methods)
      for (size_t b : o.budgets)
        for (uint64_t s = 1; s <= o.seeds; ++s)
          out.push_back({dir, run_label(dir), m, b, s});
  return out;
}

fs::path run_dir(const BenchOptions& o, const BenchRun& r) { return o.out_dir / "runs" / r.name(); }

bool run_finished(const BenchOptions& o, const BenchRun& r) {
  return fs::exists(run_dir(o, r) / "report.json");
}

std::vector<fs::path> ops_with_every_run_finished(const BenchOptions& o) {
  std::vector<fs::path> out;
  for (const auto& dir : o.ops) {
    BenchOptions one = o;
    one.ops = {dir};
    const auto runs = bench_runs(one);
    if (std::all_of(runs.begin(), runs.end(), [&](const BenchRun& r) { return run_finished(o, r); })) out.push_back(dir);
  }
  return out;
}

fs::path run_store(const BenchOptions& o, const BenchRun& r) {
  return o.executor.kind == cluster::ExecutorKind::Slurm ? run_dir(o, r) / "results.sqlite" : o.out_dir / "results.sqlite";
}

namespace {

cluster::Task run_task(const BenchOptions& o, const BenchRun& r) {
  cluster::Task t;
  t.name = r.name();
  t.dir = run_dir(o, r);
  const auto [method, with_bank] = split_bank_method(r.method);
  t.argv = {o.program.string(), "optimize", r.op_dir.string(), "--method", method,
            "--budget", std::to_string(r.budget), "--seed", std::to_string(r.seed),
            "--out", t.dir.string(), "--store", run_store(o, r).string()};
  t.argv.insert(t.argv.end(), o.optimize_args.begin(), o.optimize_args.end());
  if (with_bank) t.argv.insert(t.argv.end(), {"--bank", o.bank.string()});
  t.env = {{"ASCENDOPT_HIDDEN_SEED", std::to_string(o.hidden_seed)}};
  return t;
}

// What a finished run found, for its progress line: "3.39 -> 3.01 us, 1.126x, verified", or ""
// when its report cannot be read.
std::string run_outcome(const BenchOptions& o, const BenchRun& r) {
  const RunResult run = load_run(o, r);
  if (!run.reported) return "";
  const nlohmann::json& j = run.report;
  try {
    char text[160];
    std::snprintf(text, sizeof text, "%.2f -> %.2f us, %.3fx, %s", j.at("baseline_us").get<double>(),
                  j.at("best_us").get<double>(), j.at("speedup").get<double>(),
                  run.verified ? "verified" : "not verified");
    return text;
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

size_t run_bench_processes(const BenchOptions& o, const std::vector<BenchRun>& runs) {
  std::vector<cluster::Task> tasks;
  std::map<std::string, const BenchRun*> by_name;
  size_t todo = 0;
  for (const auto& r : runs) {
    tasks.push_back(run_task(o, r));
    by_name[r.name()] = &r;
    todo += run_finished(o, r) ? 0 : 1;
  }
  const bool slurm = o.executor.kind == cluster::ExecutorKind::Slurm;
  if (o.log)
    o.log(std::to_string(runs.size() - todo) + " of " + std::to_string(runs.size()) + " run(s) already finished; running " +
          std::to_string(todo) +
          (slurm ? " as Slurm tasks" + (o.executor.jobs ? ", " + std::to_string(o.executor.jobs) + " at once" : std::string())
                 : " with " + std::to_string(o.executor.jobs) + " job(s)"));
  size_t done = 0;
  auto finished = [&](const cluster::Task& t) { return run_finished(o, *by_name.at(t.name)); };
  auto on_end = [&](const cluster::Task& t, const cluster::TaskEnd& end) {
    const BenchRun& r = *by_name.at(t.name);
    ++done;
    std::string merged;
    if (slurm && end.finished) {
      // The driver is the only writer of the benchmark's store: a finished task's own store is added to it.
      try {
        eval::ResultStore store(o.out_dir / "results.sqlite");
        store.merge_from(run_store(o, r));
      } catch (const std::exception& e) {
        merged = " (its results were not added to the benchmark's store: " + std::string(e.what()) + ")";
      }
    }
    if (!o.log) return;
    const std::string outcome = end.finished ? run_outcome(o, r) : "";
    o.log("[" + std::to_string(done) + "/" + std::to_string(todo) + "] " + r.name() + ": " +
          (end.finished ? (outcome.empty() ? "done" : "done, " + outcome) + merged : "failed, " + end.why));
  };
  const auto summary = cluster::run_tasks(o.executor, tasks, finished, on_end);
  if (!summary.error.empty() && o.log) o.log("error: " + summary.error);
  return summary.failed;
}

}  // namespace aoc::bench
