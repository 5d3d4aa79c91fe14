// The tuner benchmark: evolve vs random vs the baseline at equal budgets on many operators.
// Per operator the baseline and the space come from one run of the default configuration;
// each method then runs once with the largest budget (a run's first N evaluations are the
// run with budget N, see search/host_search.h) and its best within each budget is verified the same way
// `ascendopt tune` verifies (all public cases + a hidden draw; the baseline when nothing
// faster passes). Configurations are cached per operator, so the methods share runs of the
// same configuration while each still counts it in its own budget. The repository is not used.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/builder.h"
#include "tune/tuner.h"

namespace aoc::bench {

struct TuneBenchOptions {
  std::vector<size_t> budgets = {16, 32, 64};
  std::vector<search::HostMethod> methods = {search::HostMethod::Evolve, search::HostMethod::Random};
  std::vector<double> fast_p = {1.0, 1.1, 1.25, 1.5};
  tune::TuneOptions tune;  // soc, seed, eval options (budget and method are set per run)
  bool verify = true;  // verify each budget's best (all public cases + hidden draw); else tuning-case times only
  std::function<void(const std::string&)> log;
};

struct TuneBenchOp {
  std::string op;
  std::string error;  // why it was skipped ("" when benchmarked)
  double baseline_us = 0;
  size_t dims = 0;
  uint64_t space_size = 0;
  // method -> budget -> verified speedup over the baseline (1 when nothing faster passed)
  std::map<std::string, std::map<size_t, double>> speedup;
  std::map<std::string, std::map<size_t, size_t>> invalid;
  size_t configurations_run = 0;
  double seconds_per_evaluation = 0;
};

struct TuneBenchReport {
  TuneBenchOptions options;
  std::vector<TuneBenchOp> ops;
  double seconds = 0;
  // Over the benchmarked operators: geomean speedup and fast_p (share with speedup > p).
  double geomean(const std::string& method, size_t budget) const;
  double fast(const std::string& method, size_t budget, double p) const;
};

TuneBenchReport run_tune_bench(const std::vector<std::filesystem::path>& op_dirs, build::Builder& builder, const TuneBenchOptions& o);

nlohmann::json to_json(const TuneBenchReport& r);
// A report written by to_json (throws std::runtime_error on a malformed one); reports of
// several runs over different operators (same budgets) merge by concatenating `ops`.
TuneBenchReport tune_bench_from_json(const nlohmann::json& j);
std::string tune_bench_table(const TuneBenchReport& r);

}  // namespace aoc::bench
