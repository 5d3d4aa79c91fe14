// The LLM proposer: one call makes one candidate. It builds the prompt of the mode from
// the parent kernel, its evaluation, experience entries and the previous failure, asks
// the model through the shared ChatClient, parses the answer strictly and writes the
// edited copy of the parent as a new candidate folder. Evaluating it is the caller's
// job (the optimizer loop, Best-of-N, OpenEvolve, rewind, `ascendopt llm-propose`), so
// every method counts evaluations the same way. docs/llm.md, "Using the proposer".
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "llm/answer.h"
#include "llm/attempt_context.h"
#include "llm/candidate_edit.h"
#include "llm/chat_client.h"
#include "llm/experience.h"
#include "llm/prompt.h"

namespace aoc::llm {

struct ProposalRequest {
  ProposalMode mode = ProposalMode::Guided;
  const aoc::eval::Candidate* parent = nullptr;               // the kernel to change (required)
  const aoc::eval::CandidateReport* parent_report = nullptr;  // its evaluation, for the profile
  std::vector<ExperienceEntry> experiences;                   // guided: best first
  std::optional<AttemptFailure> previous_failure;             // retrying after a failed attempt
  std::string rewind_target;                                  // rewind: what to remove ("" = model's choice)
  uint64_t seed = 0;                 // per proposal (sample index, iteration): part of the request
  std::filesystem::path out_dir;     // the new candidate folder; must not exist or be empty
};

struct Proposal {
  enum class Status {
    Applied,        // out_dir holds the edited candidate: evaluate it
    Unusable,       // the answer could not be applied (reason in `unusable`): counts as a failed attempt
    EndpointError,  // no answer (connection, timeout, HTTP error, malformed response): `unusable.code` is
                    // the error kind; nothing was written
  };
  Status status = Status::EndpointError;
  std::filesystem::path candidate_dir;
  std::vector<std::string> changed_files;
  std::string removed;          // rewind: what the answer says it removed
  Unusable unusable;            // why not Applied
  std::vector<ChatMessage> prompt;
  ChatAnswer answer;            // empty for EndpointError

  // The record of the proposal (status, reason, files, answer, usage); the prompt
  // itself only with `with_prompt`.
  nlohmann::json to_json(bool with_prompt = false) const;
};

const char* to_string(Proposal::Status s);

class LlmProposer {
 public:
  explicit LlmProposer(ChatClient& client, PromptLimits prompt_limits = {}, ApplyLimits apply_limits = {})
      : client_(client), prompt_limits_(prompt_limits), apply_limits_(apply_limits) {}

  // Thread-safe (the client is). Throws LlmError only for what retrying cannot fix:
  // Config (prompt over max_prompt_chars), ReplayMiss, Cache; and std::runtime_error when
  // the parent's sources cannot be read.
  Proposal propose(const ProposalRequest& req);

  // The messages propose() would send.
  std::vector<ChatMessage> prompt_for(const ProposalRequest& req) const;

  ChatClient& client() { return client_; }

 private:
  ChatClient& client_;
  PromptLimits prompt_limits_;
  ApplyLimits apply_limits_;
};

}  // namespace aoc::llm
