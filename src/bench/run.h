// `ascendopt bench`: every (operator, method, budget, seed) is one `ascendopt optimize` task with
// its own run folder under OUT/runs/, run by an executor (cluster/executor.h): local processes,
// up to `jobs` at once, or the elements of a Slurm job array. Local runs share one result store,
// so a candidate met by several runs is evaluated once (each run is still charged for it); a
// Slurm task writes a store of its own in its run folder (SQLite is not written from many nodes
// over a network file system), which the driver merges into OUT/results.sqlite as it ends. A
// killed benchmark resumes: finished runs (their report.json) are skipped, interrupted ones
// resume from their store. Every run verifies with the same hidden seed, passed to it explicitly.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cluster/executor.h"

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
  cluster::ExecutorOptions executor;  // local processes or Slurm; its state folder is <out>/slurm
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

// The store a run writes: the benchmark's shared one locally, its own in its run folder on Slurm.
std::filesystem::path run_store(const BenchOptions& o, const BenchRun& r);

// Runs what is not finished yet with o.executor; returns the number of runs that failed to
// produce a report (an executor that could not run at all counts every run it was given).
size_t run_bench_processes(const BenchOptions& o, const std::vector<BenchRun>& runs);

}  // namespace aoc::bench
