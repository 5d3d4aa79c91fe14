#include "llm/proposal_record.h"

#include <stdexcept>

#include "base/file_text.h"

namespace aoc::llm {
using base::write_text;

std::string prompt_markdown(const std::vector<ChatMessage>& msgs) {
  std::string s;
  for (const auto& m : msgs) s += "# " + m.role + "\n\n" + m.content + "\n\n";
  return s;
}

void write_proposal_record(const Proposal& p, const ChatClient& client, const std::filesystem::path& dir) {
  write_text(dir / "prompt.md", client.redact(prompt_markdown(p.prompt)));
  write_text(dir / "answer.md", client.redact(p.answer.content));
  nlohmann::json record = p.to_json();
  record.erase("answer");  // in answer.md
  write_text(dir / "proposal.json", client.redact(record.dump(2)) + "\n");
}

Proposal read_proposal_record(const std::filesystem::path& dir) {
  const nlohmann::json j = nlohmann::json::parse(base::read_text_or_throw(dir / "proposal.json"), nullptr, false);
  if (!j.is_object()) throw std::runtime_error((dir / "proposal.json").string() + " is not a JSON object");
  Proposal p;
  try {
    const std::string status = j.at("status");
    if (status == to_string(Proposal::Status::Applied)) p.status = Proposal::Status::Applied;
    else if (status == to_string(Proposal::Status::Unusable)) p.status = Proposal::Status::Unusable;
    else throw std::runtime_error("status " + status + " is not a recorded answer");
    if (p.status == Proposal::Status::Applied) p.candidate_dir = dir / "candidate";
    p.changed_files = j.at("changed_files").get<std::vector<std::string>>();
    p.removed = j.at("removed");
    p.unusable = {j.at("reason_code"), j.at("reason")};
    p.answer.key = j.at("request_key");
    p.answer.from_cache = true;
    p.answer.finish_reason = j.at("finish_reason");
    p.answer.model = j.at("model");
    p.answer.usage.prompt_tokens = j.at("prompt_tokens");
    p.answer.usage.completion_tokens = j.at("completion_tokens");
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error((dir / "proposal.json").string() + ": " + e.what());
  }
  p.answer.content = base::read_text_or_throw(dir / "answer.md");
  return p;
}

}  // namespace aoc::llm
