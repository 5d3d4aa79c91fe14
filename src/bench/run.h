// `ascendopt bench`: every (operator, method, budget, seed) is one `ascendopt optimize` process
// with its own run folder under OUT/runs/; up to `jobs` run at once. All share one result store,
// so a candidate met by several runs is evaluated once (each run is still charged for it) and a
// killed benchmark resumes: finished runs (their report.json) are skipped, interrupted ones
// resume from the store. Every run verifies with the same hidden seed.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace aoc::bench {

struct BenchRun {
  std::filesystem::path op_dir;
  std::string op, method;
  size_t budget = 0;
  uint64_t seed = 0;
  std::string name() const;  // "relu-optimize-b8-s1"
};

struct BenchOptions {
  std::vector<std::filesystem::path> ops;
  std::vector<std::string> methods = {"optimize", "best-of-n", "openevolve"};
  std::vector<size_t> budgets = {8, 16, 32};
  size_t seeds = 1;                 // seeds 1..seeds
  size_t jobs = 1;
  std::filesystem::path out_dir;    // runs/ and the store go here
  std::filesystem::path program;    // the ascendopt executable
  std::vector<std::string> optimize_args;  // passed to every run (--soc, --timeout, --max-elements ...)
  std::filesystem::path bank;       // experience bank of the methods written "M@bank"
  uint64_t hidden_seed = 0;
  std::function<void(const std::string&)> log;
};

// A bench method is an `optimize --method` name, optionally written "M@bank": the same method
// with its kernel motifs chosen by the benchmark's experience bank instead of at random, so one
// benchmark compares guided and unguided runs of a method. Returns the method and whether it
// takes the bank.
std::pair<std::string, bool> split_bank_method(const std::string& bench_method);

std::vector<BenchRun> bench_runs(const BenchOptions& o);

// A run's folder: <out>/runs/<name>.
std::filesystem::path run_dir(const BenchOptions& o, const BenchRun& r);

// A run is finished when its folder holds its report.json.
bool run_finished(const BenchOptions& o, const BenchRun& r);

// The operators of `o` whose every (method, budget, seed) run has finished, in `o.ops` order:
// the ones a benchmark still under way can already compare methods on.
std::vector<std::filesystem::path> ops_with_every_run_finished(const BenchOptions& o);

// Runs what is not finished yet; returns the number of runs that failed to produce a report.
size_t run_bench_processes(const BenchOptions& o, const std::vector<BenchRun>& runs);

}  // namespace aoc::bench
