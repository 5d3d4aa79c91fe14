// A variant with its evaluation: one entry of a run's history, what every method and proposer
// reads to choose what to try next.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "eval/candidate_eval.h"
#include "search/evaluation.h"
#include "search/variant.h"

namespace aoc::search {

struct Scored {
  size_t index = 0;  // position in the run's history (evaluation order, 0 = baseline)
  Variant variant;
  Evaluation eval;               // valid, geomean time over the evaluation cases, profiles, knobs
  std::string verdict;           // the candidate evaluator's verdict ("ok", "compile_error" ...)
  std::string origin;            // what made it: "baseline", "config: ...", "motif double_buffer"
  std::optional<size_t> parent;  // index of the variant it was made from
  bool from_store = false;       // recalled from the store (an earlier, possibly interrupted, run)
  size_t spent = 0;              // budget spent once it was charged
  double seconds = 0;            // wall time of its evaluation (0 when recalled)
  double t_hw_us = 0;            // geomean of the evaluation cases' hardware limits (0: unknown)
  // The candidate evaluator's report (profiles, diagnostics); nullptr for an attempt that made
  // no candidate (record_failure).
  std::shared_ptr<const aoc::eval::CandidateReport> report;
};
using ScoredPtr = std::shared_ptr<const Scored>;

}  // namespace aoc::search
