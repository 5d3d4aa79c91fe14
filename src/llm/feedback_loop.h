// Attempts of one proposal with feedback: ask, apply, evaluate; when the answer cannot be
// applied or the candidate is not ok, the next attempt's prompt carries the failure
// (compile diagnostics, wrong-result statistics, race report, or the refusal reason)
// and the failed answer, until a candidate is ok or the attempts are spent. Each
// attempt is recorded under <out_root>/attempt-<k>/: prompt.md, answer.md, attempt.json
// and, when applied, the candidate folder candidate/.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/candidate_eval.h"
#include "llm/proposer.h"

namespace aoc::llm {

struct AttemptOutcome {
  int index = 0;  // 1-based
  Proposal proposal;
  std::optional<aoc::eval::CandidateReport> report;  // the evaluation of an applied proposal

  bool ok() const { return report && report->verdict == aoc::eval::Verdict::Ok; }
  // What the attempt costs against an evaluation budget: an evaluated candidate and an
  // unusable answer cost one each; an endpoint error (no answer) costs none.
  int evaluations() const { return proposal.status == Proposal::Status::EndpointError ? 0 : 1; }
  nlohmann::json to_json() const;
};

struct FeedbackOptions {
  int max_attempts = 3;
  std::filesystem::path out_root;  // attempt folders go here; must be writable
};

using CandidateEvaluator = std::function<aoc::eval::CandidateReport(const std::filesystem::path& candidate_dir)>;

// Stops at the first ok candidate, after max_attempts, or at an endpoint error.
// `req.out_dir` and `req.previous_failure` are set per attempt; `req.seed` is mixed with
// the attempt number. LlmError (Config, ReplayMiss, Cache) propagates.
std::vector<AttemptOutcome> propose_with_feedback(LlmProposer& proposer, ProposalRequest req,
                                                  const CandidateEvaluator& evaluate, const FeedbackOptions& opt,
                                                  const std::function<void(const AttemptOutcome&)>& on_attempt = {});

// Geometric mean over the cases both reports simulated of base / candidate time
// (> 1: the candidate is faster); nullopt when no case has both times.
std::optional<double> speedup(const aoc::eval::CandidateReport& base, const aoc::eval::CandidateReport& candidate);

}  // namespace aoc::llm
