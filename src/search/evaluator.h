// The one evaluator every method calls, `ascendopt optimize`, `ascendopt bench` and
// `ascendopt tune` alike: a variant is measured by the run's Scoring (scoring.h) and its cost
// is charged to the run's Budget (budget.h). A recalled result (met before in this run) is
// charged once per run, as it was when first evaluated, so a resumed run spends exactly what
// the uninterrupted one would and methods sharing a result store still compete at equal budgets.
//
// A configuration whose tiling hands the kernel exactly what an evaluated variant's did
// (blockDim, tiling key, workspace and tiling bytes on every case the scoring runs) is that
// variant: the same kernel library on the same inputs runs the same way, on the simulator
// as on a device. Its tiling function is run alone (in the sandbox, no kernel) and, when its
// digests match, the evaluated variant is returned without a charge, as a recall is; e.g.
// a tile cap above a case's size, or a buffer count that a one-tile core never uses. Only
// the tiling is run on the host; nothing is measured.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "search/budget.h"
#include "search/scored.h"
#include "search/scoring.h"
#include "search/variant.h"

namespace aoc::search {

class Evaluator {
 public:
  // `scoring` outlives the Evaluator; several Evaluators may share one (each search of a
  // benchmark has its own budget and history, the scoring keeps what the stages ran).
  Evaluator(Scoring& scoring, size_t budget) : scoring_(scoring), budget_(budget) {}

  // What a request gets back: the result, and whether it came without a charge. Methods that
  // count their own share of the budget (a host search episode) read `free` from here.
  struct Answer {
    ScoredPtr scored;   // nullptr: a new candidate and the budget is spent
    bool free = false;  // met before in this run, or an evaluated variant's tiling: not charged
  };

  // The variant's result. A variant the run has met before, or one whose tiling equals an
  // evaluated variant's of the same kernel, is returned as that variant (free, no new history
  // entry); a new one is charged, or nullptr when the budget is spent.
  // `cascade` is passed to the scoring (Scoring::score); a candidate it ends early still costs one.
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

  const Budget& budget() const { return budget_; }
  const std::vector<ScoredPtr>& history() const { return history_; }
  ScoredPtr best() const;           // fastest valid variant so far
  size_t fresh_runs() const { return fresh_; }  // evaluations run by this process (not recalled)
  // Configurations answered by an evaluated variant with the same tiling (not charged).
  size_t same_tiling() const { return same_tiling_; }

  std::function<void(const Scored&)> on_evaluation;  // after each charged evaluation

 private:
  // The next history entry for `v`, just charged: its index, origin, parent and the budget spent.
  std::shared_ptr<Scored> charged_entry(const Variant& v, const std::string& origin, std::optional<size_t> parent) const;

  ScoredPtr same_tiling_as(const Variant& v);

  Scoring& scoring_;
  Budget budget_;
  std::vector<ScoredPtr> history_;
  std::map<std::string, ScoredPtr> by_key_;
  // kernel hash + tiling fingerprint (eval/tiling_match.h) over the scored cases -> evaluated variant
  std::map<std::string, ScoredPtr> by_tiling_;
  size_t fresh_ = 0;
  size_t same_tiling_ = 0;
};

}  // namespace aoc::search
