// The speed of a package as every report gives it: the geometric mean of the simulated Task
// Duration over its performance cases (op.toml `perf = true`: shapes from real models, see
// docs/op-package.md). Correctness is judged on every case; the speed only on these, so it
// measures the shapes that occur in models rather than the synthetic edge cases.
#pragma once
#include <cstddef>
#include <optional>
#include <set>
#include <string>

#include "eval/candidate_eval.h"
#include "package/op_package.h"

namespace aoc::eval {

struct PerfSpeed {
  size_t perf_cases = 0;              // performance cases of the package
  size_t perf_cases_run = 0;          // of them, in the report (fewer with --case)
  std::optional<double> geomean_us;   // only when every perf case ran, passed and was timed
};

std::set<std::string> perf_case_names(const aoc::package::OpPackage& p);
PerfSpeed perf_speed(const CandidateReport& r, const aoc::package::OpPackage& p);
// Loads the package at r.package_dir; a package that cannot be loaded has no perf cases.
PerfSpeed perf_speed(const CandidateReport& r);

// "speed (geomean Task Duration over the 4 performance cases): 12.34 us", or why there is none.
std::string perf_speed_text(const PerfSpeed& s);

}  // namespace aoc::eval
