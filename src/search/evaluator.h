// The one evaluator every method calls: a variant runs on the run's evaluation cases through
// the sandboxed candidate evaluator (docs/eval.md) and its cost is charged to the run's Budget.
// Results are written to the result store as each finishes and read back from it first, so a
// run that was killed and is started again with the same seed re-proposes the same candidates
// and gets their results from the store: nothing evaluated is lost and nothing is evaluated
// twice. The budget is the run's own (budget.h): a recalled result is charged once per run, as
// it was when first evaluated, so a resumed run spends exactly what the uninterrupted one would
// and methods sharing a store still compete at equal budgets.
//
// A configuration whose tiling hands the kernel exactly what an evaluated variant's did
// (blockDim, tiling key, workspace and tiling bytes on every evaluation case) is that
// variant: the same kernel library on the same inputs runs the same way, on the simulator
// as on a device. Its tiling function is run alone (in the sandbox, no kernel) and, when its
// digests match, the evaluated variant is returned without a charge, as a recall is; e.g.
// a tile cap above a case's size, or a buffer count that a one-tile core never uses. Only
// the tiling is run on the host; nothing is measured.
//
// A variant is scored on the evaluation cases, but only one whose tiling functions accept every
// public case can be the answer (verification runs them all). So a variant that would become
// the best also has its tiling run alone on the other public cases, and one that fails there
// (a UB budget too small for a long row the evaluation cases do not have) is an invalid
// evaluation with that case named, which the search learns from, instead of a best that
// verification rejects at the end.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "eval/candidate_eval.h"
#include "eval/result_store.h"
#include "search/budget.h"
#include "search/scored.h"
#include "search/variant.h"

namespace aoc::search {

struct EvaluatorOptions {
  aoc::eval::CandidateEvalOptions eval;  // seed, SoC, limits, harness (case_set/only_cases are set here)
  std::vector<std::string> cases;        // the evaluation cases (public cases of the package)
};

class Evaluator {
 public:
  Evaluator(aoc::build::Builder& builder, EvaluatorOptions opt, size_t budget, aoc::eval::ResultStore* store);

  // What a request gets back: the result, and whether it came without a charge. Methods that
  // count their own share of the budget (a host search episode) read `free` from here.
  struct Answer {
    ScoredPtr scored;   // nullptr: a new candidate and the budget is spent
    bool free = false;  // met before in this run, or an evaluated variant's tiling: not charged
  };

  // The variant's result. A variant the run has met before, or one whose tiling equals an
  // evaluated variant's of the same kernel, is returned as that variant (free, no new history
  // entry); a new one is charged, or nullptr when the budget is spent.
  // `cascade`: the first evaluation case runs alone first and a candidate failing it is not
  // run on the others (it still costs one evaluation).
  Answer request(const Variant& v, const std::string& origin, std::optional<size_t> parent, bool cascade = false);
  ScoredPtr evaluate(const Variant& v, const std::string& origin, std::optional<size_t> parent, bool cascade = false) {
    return request(v, origin, parent, cascade).scored;
  }

  ScoredPtr known(const std::string& key) const;

  // An attempt that made no candidate to run (an LLM answer that could not be applied): it
  // costs one evaluation under `key`, as a failed candidate does, and enters the history
  // invalid with `verdict` and `reason`; `made_from` is the variant it was made from. The same
  // key again is returned as it was; nullptr when the budget is spent.
  Answer record_failure(const std::string& key, const Variant& made_from, const std::string& origin,
                        std::optional<size_t> parent, const std::string& verdict, const std::string& reason);

  // Every public case, then a hidden draw of kHiddenCount generated cases (at most
  // kHiddenMaxElements elements) with `hidden_seed`, all with inputs drawn from `hidden_seed`
  // (not the run's seed). Not charged; results go through the store too, so a variant
  // verified by another run with the same hidden seed (the baseline, a best another search
  // seed found too) is not run again.
  struct Verification {
    bool passed = false;
    std::string message;  // the first failure when not passed
  };
  Verification verify(const Variant& v, uint64_t hidden_seed);
  static constexpr int64_t kHiddenCount = 8;
  static constexpr int64_t kHiddenMaxElements = 1 << 20;
  // The verdict and reason of `v`'s tiling failing on a public case that is not an evaluation
  // case (its tiling functions run alone in the sandbox, no kernel; kept per variant); nullopt
  // when it does not. Not charged.
  struct TilingFailure {
    std::string verdict, reason;
  };
  std::optional<TilingFailure> tiling_failure_elsewhere(const Variant& v);

  const Budget& budget() const { return budget_; }
  const std::vector<ScoredPtr>& history() const { return history_; }
  ScoredPtr best() const;           // fastest valid variant so far
  size_t fresh_runs() const { return fresh_; }  // evaluations run by this process (not recalled)
  // Configurations answered by an evaluated variant with the same tiling (not charged).
  size_t same_tiling() const { return same_tiling_; }
  const EvaluatorOptions& options() const { return opt_; }
  aoc::build::Builder& builder() { return builder_; }

  std::function<void(const Scored&)> on_evaluation;  // after each charged evaluation

 private:
  // The next history entry for `v`, just charged: its index, origin, parent and the budget spent.
  std::shared_ptr<Scored> charged_entry(const Variant& v, const std::string& origin, std::optional<size_t> parent) const;
  aoc::eval::CandidateReport run(const aoc::eval::Candidate& c, const Variant& v, const std::vector<std::string>& cases,
                                 const std::string& set, uint64_t seed, bool& from_store, double& seconds);

  ScoredPtr same_tiling_as(const Variant& v);

  aoc::build::Builder& builder_;
  EvaluatorOptions opt_;
  Budget budget_;
  aoc::eval::ResultStore* store_;
  std::vector<ScoredPtr> history_;
  std::map<std::string, ScoredPtr> by_key_;
  // kernel hash + tiling fingerprint (eval/tiling_match.h) over the evaluation cases -> evaluated variant
  std::map<std::string, ScoredPtr> by_tiling_;
  std::map<std::string, std::optional<TilingFailure>> tiling_failures_;  // variant key -> tiling_failure_elsewhere
  size_t fresh_ = 0;
  size_t same_tiling_ = 0;
};

}  // namespace aoc::search
