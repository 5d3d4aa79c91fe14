// The record of one proposal on disk, in its attempt folder: prompt.md (the messages),
// answer.md (the model's text) and proposal.json (Proposal::to_json without the answer),
// every one redacted with the client's key. Shared by the optimizer's LLM proposer and the
// rewind helper (rewind_ask.h).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "llm/chat_client.h"
#include "llm/proposer.h"

namespace aoc::llm {

// "# system\n\n...\n\n# user\n\n...".
std::string prompt_markdown(const std::vector<ChatMessage>& msgs);

// Writes the three files into `dir` (which must exist); throws std::runtime_error naming a
// file that cannot be written.
void write_proposal_record(const Proposal& p, const ChatClient& client, const std::filesystem::path& dir);

// The proposal a record in `dir` describes: status, reason, changed files, what it removed,
// the request key and token counts, the answer from answer.md (the prompt is not read back).
// Throws std::runtime_error saying what is missing or unreadable.
Proposal read_proposal_record(const std::filesystem::path& dir);

}  // namespace aoc::llm
