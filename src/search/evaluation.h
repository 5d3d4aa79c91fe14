// One evaluation of a configuration: the candidate's tuning cases run with it. A
// configuration the tiling function or the kernel rejects (tiling error, runtime error,
// wrong result, timeout ...) is a spent evaluation that is invalid, with the reason kept.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "eval/candidate_eval.h"
#include "search/space.h"

namespace aoc::search {

struct CaseTiming {
  std::string name;
  double sim_us = 0;
  uint32_t block_dim = 0;
  std::string bound_pipe;                 // e.g. "aiv_mte2_time"
  std::map<std::string, double> profile;  // op-level msprof fields
};

struct Evaluation {
  Point point;
  std::string key;
  bool valid = false;
  std::string reason;  // why it is invalid
  // Geometric mean of the tuning cases' simulated Task Durations (lower is better).
  double time_us = 0;
  std::vector<CaseTiming> cases;
  std::vector<eval::KnobDecl> knobs;  // declared by the tiling function over the cases
  uint32_t platform_reads = 0;        // eval::kPlatformReads* bits read by the tiling over the cases
  // Known without a new evaluation (a configuration evaluated before, or one whose tiling
  // equals an evaluated one's): a search does not count it against its budget
  // (SearchOptions::max_free).
  bool free = false;
};

// The evaluation a candidate report makes: valid when every case is ok and timed, the time
// the geometric mean of the cases' simulated Task Durations, the knobs and platform reads the
// tiling declared over the cases. `point` and `key` are left for the caller.
Evaluation evaluation_from_report(const eval::CandidateReport& rep);

// Adds to `e` what the report's cases tell beside the verdict: the knobs and platform reads
// the tiling declared, and the timing of every timed case `timed` accepts (all when null).
void add_case_details(Evaluation& e, const eval::CandidateReport& rep,
                      const std::vector<std::string>* timed = nullptr);

}  // namespace aoc::search
