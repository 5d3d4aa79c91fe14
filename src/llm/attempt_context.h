// What a prompt says about a kernel's last evaluation, taken from the evaluator's report
// (eval::CandidateReport, the same data as `ascendopt eval --json`): the simulated
// profile of a correct kernel, or why an attempt failed. Paths are reduced to the
// candidate-relative form (op_kernel/add.cpp:64), so prompts do not depend on where a
// candidate was written and a replayed run asks the same questions.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/candidate_eval.h"
#include "llm/answer.h"

namespace aoc::llm {

struct CaseProfile {
  std::string name, dtype, shapes;
  double task_us = 0;
  std::optional<double> t_hw_us;
  std::string t_hw_bound;               // the unit that sets T_HW
  std::string bound_pipe;               // the pipe with the largest time (aiv_mte2_time ...)
  std::map<std::string, double> pipes;  // msprof-style fields: aiv_vec_time, aiv_vec_ratio ...
};

struct ProfileSummary {
  std::string soc;
  std::vector<CaseProfile> cases;  // cases with a simulated time
  double geomean_task_us = 0;
  std::optional<double> geomean_ratio_to_t_hw;  // geomean of task / T_HW over cases with both
};

// Nullopt when the report has no simulated case (not ok, or no SoC).
std::optional<ProfileSummary> profile_from_report(const aoc::eval::CandidateReport& r);

struct AttemptFailure {
  std::string verdict;               // compile_error, wrong_result, ..., or unusable_answer
  std::string summary;               // one line
  std::vector<std::string> details;  // diagnostics, per-case statistics, race reports
  std::string answer_excerpt;        // the failed answer (start), so the next one can differ
};

// The failure of an evaluated attempt (its verdict is not ok).
AttemptFailure failure_from_report(const aoc::eval::CandidateReport& r, size_t max_details = 24);
// An answer that could not be applied.
AttemptFailure failure_from_unusable(const Unusable& u);

// Absolute paths in `text` reduced to op_kernel/..., op_host/..., ascendc/... or the file name.
std::string scrub_paths(const std::string& text);

}  // namespace aoc::llm
