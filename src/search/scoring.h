// How the Evaluator (evaluator.h) measures a variant it has charged. The Evaluator owns what
// every run shares: the budget, the history, a variant met again, a configuration whose tiling
// equals an evaluated one's. A Scoring owns what differs between runs: which cases a variant
// runs on, how many trials, and what stands between a fast screen and the best.
//  - CaseScoring (case_scoring.h): the evaluation cases through the result store, then the
//    verification of the fastest variants at the end (`ascendopt optimize`, `ascendopt bench`);
//  - GatedScoring (gated_scoring.h): a screen, and the full gate before a variant can become
//    the best (eval/cascade.h; `ascendopt tune`, `ascendopt tune-bench`).
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "search/scored.h"
#include "search/variant.h"

namespace aoc::search {

// The hidden draw a verification adds to the public cases: this many generated cases of at
// most this many elements.
inline constexpr int64_t kHiddenCount = 8;
inline constexpr int64_t kHiddenMaxElements = 1 << 20;

struct Verification {
  bool passed = false;
  std::string message;  // the first failure when not passed
  // Each public case's simulated Task Duration (us), when the public cases all passed.
  std::map<std::string, double> public_us;
};

class Scoring {
 public:
  virtual ~Scoring() = default;
  // Measures `s.variant` (charged to the budget) into `s`: eval, verdict, report, seconds,
  // from_store, t_hw_us. `best` is the fastest valid variant of the run so far (nullptr: none):
  // a scoring may check further what could become the best. `cascade`: a cheap first stage may
  // end the measurement early (CaseScoring). Returns the tiling fingerprint (eval/tiling_match.h)
  // of the variant over the cases it ran, under which a later configuration with the same
  // tiling is answered by `s`; "" when none may be.
  virtual std::string score(Scored& s, const ScoredPtr& best, bool cascade) = 0;
  // The fingerprint `score` would return for `v`, from a run of its tiling functions alone (in
  // the sandbox, no kernel); "" when it cannot be had.
  virtual std::string tiling_only_fingerprint(const Variant& v) = 0;
};

}  // namespace aoc::search
