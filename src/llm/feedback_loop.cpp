#include "llm/feedback_loop.h"

#include <cmath>
#include <map>

#include "base/file_text.h"
#include "base/rng.h"
#include "llm/proposal_record.h"

namespace aoc::llm {
namespace fs = std::filesystem;
using base::write_text;

nlohmann::json AttemptOutcome::to_json() const {
  nlohmann::json j = proposal.to_json();
  j["attempt"] = index;
  j["evaluations"] = evaluations();
  if (report) {
    j["verdict"] = aoc::eval::to_string(report->verdict);
    j["verdict_message"] = report->message;
  }
  return j;
}

std::vector<AttemptOutcome> propose_with_feedback(LlmProposer& proposer, ProposalRequest req,
                                                  const CandidateEvaluator& evaluate, const FeedbackOptions& opt,
                                                  const std::function<void(const AttemptOutcome&)>& on_attempt) {
  std::vector<AttemptOutcome> out;
  const uint64_t seed = req.seed;
  ChatClient& client = proposer.client();
  for (int k = 1; k <= opt.max_attempts; ++k) {
    const fs::path dir = opt.out_root / ("attempt-" + std::to_string(k));
    fs::create_directories(dir);
    req.seed = aoc::base::mix_seed(seed, static_cast<uint64_t>(k));
    req.out_dir = dir / "candidate";
    AttemptOutcome a;
    a.index = k;
    a.proposal = proposer.propose(req);
    write_text(dir / "prompt.md", client.redact(prompt_markdown(a.proposal.prompt)));
    if (a.proposal.status != Proposal::Status::EndpointError)
      write_text(dir / "answer.md", client.redact(a.proposal.answer.content));
    if (a.proposal.status == Proposal::Status::Applied) a.report = evaluate(a.proposal.candidate_dir);
    nlohmann::json record = a.to_json();
    record.erase("answer");  // in answer.md
    if (a.report) record["report"] = aoc::eval::to_json(*a.report);
    write_text(dir / "attempt.json", client.redact(record.dump(2)) + "\n");
    out.push_back(a);
    if (on_attempt) on_attempt(out.back());
    if (a.ok() || a.proposal.status == Proposal::Status::EndpointError) break;
    AttemptFailure f = a.report ? failure_from_report(*a.report) : failure_from_unusable(a.proposal.unusable);
    f.answer_excerpt = a.proposal.answer.content;
    req.previous_failure = std::move(f);
  }
  return out;
}

std::optional<double> speedup(const aoc::eval::CandidateReport& base, const aoc::eval::CandidateReport& cand) {
  std::map<std::string, double> base_us;
  for (const auto& c : base.cases)
    if (c.sim_us && *c.sim_us > 0) base_us[c.name] = *c.sim_us;
  double log_sum = 0;
  size_t n = 0;
  for (const auto& c : cand.cases) {
    auto b = base_us.find(c.name);
    if (b == base_us.end() || !c.sim_us || *c.sim_us <= 0) continue;
    log_sum += std::log(b->second / *c.sim_us);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return std::exp(log_sum / static_cast<double>(n));
}

}  // namespace aoc::llm
