// The benchmark's figures from the runs' report.json files. Conventions:
//  - a run's speedup is its verified result's (baseline time / best time on the evaluation
//    cases); a run without a report or whose result failed verification counts as 1.0, as does
//    a slower result (the optimizer keeps the baseline, so it never reports one);
//  - geomean: over all (operator, seed) runs of a method and budget with that convention;
//    "correct-only" over the runs with a verified result that is faster than the baseline
//    (1.0 when there are none);
//  - fast_p: the share of runs with a verified speedup strictly above p;
//  - the spread: the geomean of each seed taken alone, lowest and highest;
//  - ratio to T_HW: geomean over runs of best time / the hardware limit of the same cases;
//  - progress: at each evaluation count, the geomean over runs of the best speedup so far;
//  - LLM use (runs with --llm-config): requests, tokens and cost summed over the runs.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/run.h"

namespace aoc::bench {

constexpr double kFastP[] = {1.0, 1.1, 1.25, 1.5, 2.0};

struct RunResult {
  BenchRun run;
  bool reported = false, verified = false;
  double speedup = 1.0;           // by the convention above
  double t_hw_ratio = 0;          // best / T_HW (0: unknown)
  std::vector<double> progress;   // best speedup after each evaluation
  nlohmann::json report;          // the run's report.json (empty when missing)
};

struct MethodFigures {
  std::string method;
  size_t budget = 0;
  size_t runs = 0, verified = 0;
  double geomean = 1.0, geomean_correct = 1.0;
  double seed_min = 1.0, seed_max = 1.0;
  std::vector<double> fast_p;  // in kFastP order
  double t_hw_ratio = 0;
  std::vector<double> progress;
  size_t llm_runs = 0;  // runs whose report has an llm object
  int64_t llm_requests = 0, llm_cache_hits = 0, llm_prompt_tokens = 0, llm_completion_tokens = 0;
  double llm_cost = 0;
};

struct BenchSummary {
  std::vector<std::string> ops, methods;
  std::vector<size_t> budgets;
  size_t seeds = 0;
  std::vector<RunResult> results;
  std::vector<MethodFigures> figures;  // per method, then budget
  // Mean speedup over seeds at the largest budget: per_op[op][method].
  std::map<std::string, std::map<std::string, double>> per_op;
};

// A run's report.json as the summary reads it (reported false when it is missing or unreadable).
RunResult load_run(const BenchOptions& o, const BenchRun& r);

BenchSummary summarize_bench(const BenchOptions& o, const std::vector<BenchRun>& runs);
std::string bench_table(const BenchSummary& s);
nlohmann::json to_json(const BenchSummary& s);

}  // namespace aoc::bench
