// The messages sent to the model for one proposal (docs/llm.md, "Prompts"): a system
// message, then a user message with the task of the mode, the operator (description from
// op.toml's leading comment, tensors, public cases), the simulated profile, experience
// entries, the previous attempt's failure, the current sources and the answer format.
// The same inputs always give the same text, so the cache key of a request is stable.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llm/attempt_context.h"
#include "llm/candidate_edit.h"
#include "llm/chat_client.h"
#include "llm/experience.h"
#include "package/op_package.h"

namespace aoc::llm {

enum class ProposalMode {
  Guided,  // make it faster, with experience entries as guidance (optimize, OpenEvolve)
  Sample,  // make it faster, no guidance or feedback (Best-of-N)
  Rewind,  // remove one optimization from a strong kernel (rewind mining)
};

const char* to_string(ProposalMode m);
std::optional<ProposalMode> parse_mode(std::string_view s);  // guided, sample, rewind

struct PromptInputs {
  ProposalMode mode = ProposalMode::Guided;
  const aoc::package::OpPackage* package = nullptr;  // required
  SourceTree sources;                           // the kernel to change
  std::optional<ProfileSummary> profile;
  std::vector<ExperienceEntry> experiences;     // guided only
  std::optional<AttemptFailure> previous_failure;
  std::string rewind_target;                    // rewind: what to remove; empty: the model chooses
};

struct PromptLimits {
  size_t max_cases = 24;
  size_t max_experiences = 8;
  size_t max_diff_chars = 6000;     // per experience entry
  size_t max_answer_excerpt = 4000; // of a failed attempt
};

std::vector<ChatMessage> build_prompt(const PromptInputs& in, const PromptLimits& limits = {});

// The package's description: the comment lines at the top of its op.toml.
std::string package_description(const aoc::package::OpPackage& p);

}  // namespace aoc::llm
