// Everything that makes a candidate is a Proposer: host configuration proposals (the tuner's
// moves), kernel motif rewrites (random applicable motif, or one an experience bank picks),
// and an LLM (src/llm/proposer.h) behind the same interface. A proposer only makes the
// variant; the method evaluates it through the one Evaluator, so all methods pay the same.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "search/scored.h"
#include "search/variant.h"
#include "search/rng.h"

namespace aoc::search {

struct ProposalContext {
  const Scored& parent;                     // an evaluated, valid variant to change
  std::vector<const Scored*> inspirations;  // other evaluated variants the method shows (may be empty)
  Rng& rng;
  // True for a variant key the run has already evaluated: proposers avoid those.
  std::function<bool(const std::string&)> seen;
};

struct Proposal {
  Variant variant;
  std::string origin;  // "config: mte2-bound: longer tiles", "motif double_buffer", ...
  // Set when the attempt made no candidate (an LLM answer that could not be applied): why, and
  // the attempt's own key. `variant` is then the parent's. It still costs one evaluation
  // (Evaluator::record_failure; evaluate_proposal in methods.h does the right call).
  std::string failure;
  std::string failure_key;
  std::string failure_verdict;  // "unusable_answer"

  // A candidate made: its variant and where it came from (no failure).
  static Proposal made(Variant v, std::string origin) { return {std::move(v), std::move(origin), {}, {}, {}}; }
};

class Proposer {
 public:
  virtual ~Proposer() = default;
  virtual std::string name() const = 0;  // "config", "motif", "llm"
  // A new variant made from ctx.parent, or nothing when this proposer has nothing left to try.
  virtual std::optional<Proposal> propose(const ProposalContext& ctx) = 0;
};

}  // namespace aoc::search
