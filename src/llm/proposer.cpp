#include "llm/proposer.h"

#include "base/rng.h"

namespace aoc::llm {

const char* to_string(Proposal::Status s) {
  switch (s) {
    case Proposal::Status::Applied: return "applied";
    case Proposal::Status::Unusable: return "unusable_answer";
    case Proposal::Status::EndpointError: return "endpoint_error";
  }
  return "?";
}

nlohmann::json Proposal::to_json(bool with_prompt) const {
  nlohmann::json j = {{"status", to_string(status)},
                      {"candidate", candidate_dir.string()},
                      {"changed_files", changed_files},
                      {"removed", removed},
                      {"reason_code", unusable.code},
                      {"reason", unusable.message},
                      {"request_key", answer.key},
                      {"from_cache", answer.from_cache},
                      {"finish_reason", answer.finish_reason},
                      {"model", answer.model},
                      {"prompt_tokens", answer.usage.prompt_tokens},
                      {"completion_tokens", answer.usage.completion_tokens},
                      {"attempts", answer.attempts},
                      {"seconds", answer.seconds},
                      {"answer", answer.content}};
  if (with_prompt) {
    j["prompt"] = nlohmann::json::array();
    for (const auto& m : prompt) j["prompt"].push_back({{"role", m.role}, {"content", m.content}});
  }
  return j;
}

namespace {

PromptInputs prompt_inputs(const ProposalRequest& req, SourceTree sources) {
  PromptInputs in;
  in.mode = req.mode;
  in.package = &req.parent->package;
  in.sources = std::move(sources);
  if (req.parent_report != nullptr) in.profile = profile_from_report(*req.parent_report);
  in.experiences = req.experiences;
  in.previous_failure = req.previous_failure;
  in.rewind_target = req.rewind_target;
  return in;
}

const aoc::eval::Candidate& parent_of(const ProposalRequest& req) {
  if (req.parent == nullptr) throw std::invalid_argument("LlmProposer: the request names no parent candidate");
  return *req.parent;
}

}  // namespace

std::vector<ChatMessage> LlmProposer::prompt_for(const ProposalRequest& req) const {
  return build_prompt(prompt_inputs(req, read_sources(parent_of(req))), prompt_limits_);
}

Proposal LlmProposer::propose(const ProposalRequest& req) {
  Proposal p;
  const SourceTree sources = read_sources(parent_of(req));
  p.prompt = build_prompt(prompt_inputs(req, sources), prompt_limits_);
  ChatRequest chat;
  chat.messages = p.prompt;
  // Servers keep seeds in a signed 32- or 64-bit integer; 31 bits suit every one.
  chat.seed = aoc::base::mix_seed(client_.options().seed, req.seed, static_cast<uint64_t>(req.mode)) & 0x7fffffffull;
  try {
    p.answer = client_.complete(chat);
  } catch (const LlmError& e) {
    if (e.kind() == ErrorKind::Config || e.kind() == ErrorKind::ReplayMiss || e.kind() == ErrorKind::Cache) throw;
    p.status = Proposal::Status::EndpointError;
    p.unusable = {to_string(e.kind()), e.what()};
    return p;
  }
  try {
    const ParsedAnswer parsed =
        parse_answer(p.answer.content, p.answer.finish_reason, AnswerLimits{client_.options().max_answer_chars});
    p.removed = parsed.removed;
    const AppliedAnswer applied = apply_edits(sources, parsed, apply_limits_);
    write_candidate(applied.tree, req.out_dir);
    p.status = Proposal::Status::Applied;
    p.candidate_dir = req.out_dir;
    p.changed_files = applied.changed;
  } catch (const AnswerError& e) {
    p.status = Proposal::Status::Unusable;
    p.unusable = e.unusable();
  }
  return p;
}

}  // namespace aoc::llm
