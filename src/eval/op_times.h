// Per-operator time figures of the suite table (`ascendopt ops list --times`, docs/ops.md)
// and the suite test: one candidate's evaluation summarised over its cases as the
// geometric mean of the simulated Task Duration, the same geomean of T_HW, and the
// most frequent bound unit. Geomeans weigh every case alike, whatever its size, so one
// large case does not hide a regression on the small ones.
#pragma once
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "eval/candidate_eval.h"

namespace aoc::eval {

struct TimeSummary {
  Verdict verdict = Verdict::Error;
  std::string message;             // why it is not ok (empty when ok)
  size_t cases = 0;                // cases summarised
  std::optional<double> us;        // geomean simulated Task Duration; only when every case has a time
  std::optional<double> t_hw_us;   // geomean T_HW over the same cases
  std::string bound;               // most frequent bound unit; ties: that of the case with the largest T_HW
};

// Geometric mean; nullopt for an empty list or a value that is not positive.
std::optional<double> geomean(const std::vector<double>& values);

// Summary over the cases of `r` whose names are in `only` (empty: every case). Times are
// given only when every such case is correct (ok or suspicious) and was timed, so a
// geomean never silently drops a failing case.
TimeSummary summarise_times(const CandidateReport& r, const std::set<std::string>& only = {});

// <package>/expert when it is an expert folder (holds op_kernel/), else nullopt.
std::optional<std::filesystem::path> expert_folder(const std::filesystem::path& package_dir);

}  // namespace aoc::eval
