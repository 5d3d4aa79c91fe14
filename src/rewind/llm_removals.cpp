#include "rewind/llm_removals.h"

#include <algorithm>

#include "llm/rewind_ask.h"
#include "llm/source_diff.h"
#include "rewind/mined_entry.h"

namespace aoc::rewind {
namespace fs = std::filesystem;
using aoc::llm::Proposal;

LlmRemoval LlmRemover::ask_one(const aoc::eval::Candidate& kernel, const aoc::eval::CandidateReport& report,
                               const std::vector<aoc::rewrite::MotifState>& states,
                               const aoc::rewrite::MotifState* target, uint64_t seed, const fs::path& dir,
                               const std::string& header_hash) {
  LlmRemoval out;
  out.row.source = "llm";
  out.row.dir = dir;
  out.row.motif = aoc::bank::kUnclassified;
  // The prompt quotes the target; the motif's summary says what the optimization looks like.
  if (target != nullptr) out.row.target = target->motif + (target->summary.empty() ? "" : ": " + target->summary);
  aoc::llm::RewindAsk ask;
  ask.kernel = &kernel;
  ask.report = &report;
  ask.target = out.row.target;
  ask.seed = seed;
  ask.dir = dir;
  aoc::llm::RewindAnswer a;
  try {
    a = aoc::llm::ask_rewound_kernel(llm_, ask);
  } catch (const aoc::llm::LlmError&) {
    throw;
  } catch (const std::exception& e) {  // sources that cannot be read, a folder or record that cannot be
    out.row.status = "failed";
    out.row.reason = client().redact(e.what());
    return out;
  }
  const Proposal& p = a.proposal;
  ++(a.loaded ? counts_.loaded : counts_.asked);
  if (p.status == Proposal::Status::EndpointError) {
    ++counts_.endpoint_errors;
    out.row.status = "no_answer";
    out.row.reason = p.unusable.code + ": " + client().redact(p.unusable.message);
    if (++endpoint_failures_ == kMaxEndpointFailures)
      notes_.push_back("the endpoint failed " + std::to_string(kMaxEndpointFailures) +
                       " times in a row; the model is not asked again in this run");
    return out;
  }
  endpoint_failures_ = 0;
  out.row.removed = client().redact(p.removed);
  out.provenance = {{"source", "llm"},
                    {"model", client().options().model},
                    {"request_key", p.answer.key},
                    {"asked", target != nullptr ? out.row.target : "the optimization that matters most"},
                    {"removed", out.row.removed},
                    {"attempt", dir.filename().string()}};
  if (p.status == Proposal::Status::Unusable) {
    ++counts_.unusable;
    out.row.status = "unusable";
    out.row.reason = p.unusable.code + ": " + client().redact(p.unusable.message);
    return out;
  }
  ++counts_.applied;
  aoc::eval::Candidate rewound;
  try {
    rewound = aoc::eval::load_candidate(p.candidate_dir, header_hash);
  } catch (const std::exception& e) {
    out.row.status = "failed";
    out.row.reason = "the rewound kernel cannot be read: " + client().redact(e.what());
    return out;
  }
  out.diff = aoc::llm::source_diff(kernel, rewound);
  try {
    out.label = removed_motif(states, aoc::rewrite::detect_motifs(rewound), target ? target->motif : "");
  } catch (const std::exception&) {
    // Sources the detectors cannot parse do not compile either: the evaluation says why.
    out.label = unclassified();
  }
  out.row.motif = out.label.motif;
  out.candidate = p.candidate_dir;
  const std::string named = out.row.removed.empty() ? (target ? target->motif : "an optimization") : out.row.removed;
  out.what = "model removal of \"" + named + "\"";
  return out;
}

std::vector<LlmRemoval> LlmRemover::ask(const aoc::eval::Candidate& kernel, const aoc::eval::CandidateReport& report,
                                        const std::vector<aoc::rewrite::MotifState>& states,
                                        const std::vector<std::string>& named, const fs::path& work_dir,
                                        const std::string& header_hash) {
  std::vector<LlmRemoval> out;
  const std::string stem = kernel.package.name + "-" + kernel.hash.substr(0, 12) + "-llm-";
  auto stopped = [&] { return endpoint_failures_ >= kMaxEndpointFailures; };
  for (const auto& m : named) {
    if (stopped()) break;
    const auto s = std::find_if(states.begin(), states.end(), [&](const auto& x) { return x.motif == m; });
    if (s == states.end()) continue;
    out.push_back(ask_one(kernel, report, states, &*s, 0, work_dir / (stem + "remove-" + m), header_hash));
  }
  for (size_t n = 1; n <= unnamed_ && !stopped(); ++n)
    out.push_back(ask_one(kernel, report, states, nullptr, n, work_dir / (stem + std::to_string(n)), header_hash));
  return out;
}

}  // namespace aoc::rewind
