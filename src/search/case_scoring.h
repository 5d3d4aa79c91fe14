// The scoring of `ascendopt optimize` and `ascendopt bench`: a variant runs on the run's
// evaluation cases through the sandboxed candidate evaluator (docs/eval.md). Results are
// written to the result store as each finishes and read back from it first, so a run that was
// killed and is started again with the same seed re-proposes the same candidates and gets their
// results from the store: nothing evaluated is lost and nothing is evaluated twice.
//
// A variant is scored on the evaluation cases, but only one whose tiling functions accept every
// public case can be the answer (verification runs them all). So a variant that would become
// the best also has its tiling run alone on the other public cases, and one that fails there
// (a UB budget too small for a long row the evaluation cases do not have) is an invalid
// evaluation with that case named, which the search learns from, instead of a best that
// verification rejects at the end.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "eval/candidate_eval.h"
#include "eval/result_store.h"
#include "search/scoring.h"

namespace aoc::search {

struct CaseScoringOptions {
  aoc::eval::CandidateEvalOptions eval;  // seed, SoC, limits, harness (case_set/only_cases are set here)
  std::vector<std::string> cases;        // the evaluation cases (public cases of the package)
};

class CaseScoring : public Scoring {
 public:
  // `store` may be null (nothing is kept between runs).
  CaseScoring(aoc::build::Builder& builder, CaseScoringOptions opt, aoc::eval::ResultStore* store);

  // The evaluation cases, one trial, geomean of their Task Durations. `cascade`: the first
  // evaluation case runs alone first and a candidate failing it is not run on the others.
  std::string score(Scored& s, const ScoredPtr& best, bool cascade) override;
  std::string tiling_only_fingerprint(const Variant& v) override;

  // Every public case, then a hidden draw of kHiddenCount generated cases (at most
  // kHiddenMaxElements elements) with `hidden_seed`, all with inputs drawn from `hidden_seed`
  // (not the run's seed). Not charged; results go through the store too, so a variant
  // verified by another run with the same hidden seed (the baseline, a best another search
  // seed found too) is not run again.
  Verification verify(const Variant& v, uint64_t hidden_seed);
  // Every public case's Task Duration (us) of `v` as verification's first stage measures it
  // (the same stored result); nullopt when a public case fails. Not charged.
  std::optional<std::map<std::string, double>> public_times(const Variant& v, uint64_t hidden_seed);
  // The verdict and reason of `v`'s tiling failing on a public case that is not an evaluation
  // case (its tiling functions run alone in the sandbox, no kernel; kept per variant); nullopt
  // when it does not. Not charged.
  struct TilingFailure {
    std::string verdict, reason;
  };
  std::optional<TilingFailure> tiling_failure_elsewhere(const Variant& v);

  const CaseScoringOptions& options() const { return opt_; }

 private:
  aoc::eval::CandidateReport run(const aoc::eval::Candidate& c, const Variant& v, const std::vector<std::string>& cases,
                                 const std::string& set, uint64_t seed, bool& from_store, double& seconds);

  aoc::build::Builder& builder_;
  CaseScoringOptions opt_;
  aoc::eval::ResultStore* store_;
  std::map<std::string, std::optional<TilingFailure>> tiling_failures_;  // variant key -> tiling_failure_elsewhere
};

}  // namespace aoc::search
