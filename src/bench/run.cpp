#include "bench/run.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "bench/metrics.h"
#include "eval/candidate.h"
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

namespace {

pid_t start(const BenchOptions& o, const BenchRun& r) {
  const fs::path dir = run_dir(o, r);
  fs::create_directories(dir);
  const auto [method, with_bank] = split_bank_method(r.method);
  std::vector<std::string> args = {o.program.string(), "optimize", r.op_dir.string(), "--method", method,
                                   "--budget", std::to_string(r.budget), "--seed", std::to_string(r.seed),
                                   "--out", dir.string(), "--store", (o.out_dir / "results.sqlite").string()};
  args.insert(args.end(), o.optimize_args.begin(), o.optimize_args.end());
  if (with_bank) args.insert(args.end(), {"--bank", o.bank.string()});
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int log = ::open((dir / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (log >= 0) {
    ::dup2(log, 1);
    ::dup2(log, 2);
  }
  ::setenv("ASCENDOPT_HIDDEN_SEED", std::to_string(o.hidden_seed).c_str(), 1);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  ::_exit(127);
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
  std::vector<const BenchRun*> todo;
  for (const auto& r : runs)
    if (!run_finished(o, r)) todo.push_back(&r);
  if (o.log)
    o.log(std::to_string(runs.size() - todo.size()) + " of " + std::to_string(runs.size()) +
          " run(s) already finished; running " + std::to_string(todo.size()) + " with " + std::to_string(o.jobs) +
          " job(s)");
  std::map<pid_t, const BenchRun*> running;
  size_t next = 0, failed = 0, done = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < std::max<size_t>(1, o.jobs)) {
      const pid_t pid = start(o, *todo[next]);
      if (pid < 0) {
        ++failed;
        ++next;
        continue;
      }
      running[pid] = todo[next++];
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) break;
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const BenchRun& r = *it->second;
    running.erase(it);
    ++done;
    const bool ok = run_finished(o, r);
    if (!ok) ++failed;
    if (o.log) {
      const std::string outcome = ok ? run_outcome(o, r) : "";
      o.log("[" + std::to_string(done) + "/" + std::to_string(todo.size()) + "] " + r.name() + ": " +
            (ok ? (outcome.empty() ? "done" : "done, " + outcome)
                : "failed, see " + (run_dir(o, r) / "log.txt").string()));
    }
  }
  return failed;
}

}  // namespace aoc::bench
