// The scoring of `ascendopt tune` and `ascendopt tune-bench`: a configuration is screened on the
// tuning cases plus a correctness probe, one trial each (the time is the tuning cases'
// geometric mean), and one faster than the run's best so far pays the full gate before it can
// be the best: every public case with both trials, then a hidden draw of kHiddenCount generated
// cases of at most kHiddenMaxElements elements, one seed for the scoring from
// $ASCENDOPT_HIDDEN_SEED or fresh (eval/cascade.h). A configuration failing the gate is invalid
// ("full gate: ..."), so the Evaluator's best is always verified.
//
// The stages' results are kept per configuration, so several searches of one operator (the
// benchmark: one Evaluator per method over one GatedScoring) pay for each configuration once.
// A configuration that failed the gate lends its tiling to no other: the gate runs cases the
// screen does not, where the tilings may differ.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "eval/candidate_eval.h"
#include "eval/cascade.h"
#include "search/evaluation.h"
#include "search/scoring.h"

namespace aoc::search {

class GatedScoring : public Scoring {
 public:
  // gate = false: screens only (nothing is verified).
  // `probe_cases` empty: eval::default_probe_cases.
  GatedScoring(aoc::build::Builder& builder, aoc::eval::CandidateEvalOptions opt, std::vector<std::string> tuning_cases,
               std::vector<std::string> probe_cases, bool gate = true);

  std::string score(Scored& s, const ScoredPtr& best, bool cascade) override;
  std::string tiling_only_fingerprint(const Variant& v) override;

  // The screen of a variant on its own (not an evaluation of a search: the baseline a space is
  // read from).
  Evaluation screen(const Variant& v);
  // The full gate on its own.
  Verification verify(const Variant& v);

  std::optional<uint64_t> hidden_seed() const { return cascade_.hidden_seed(); }
  const std::vector<std::string>& tuning_cases() const { return cascade_.options().timing_cases; }
  size_t runs() const { return cascade_.screens_run(); }    // configurations screened
  size_t gates() const { return cascade_.gates_run(); }     // configurations that paid the full gate
  double seconds() const { return cascade_.seconds(); }

 private:
  Evaluation from_screen(const aoc::eval::CascadeScreen& s) const;
  aoc::eval::Cascade cascade_;
};

}  // namespace aoc::search
