// Removals asked of a language model when rewinding a strong kernel (docs/rewind.md, "With a
// model"): one request per present motif the rewriter could not remove (refused, or its
// rewound kernel failed), naming the motif and its summary, and `unnamed` requests for the
// optimization the model judges to matter most (distinct seeds). Each request is an attempt
// folder <work_dir>/<op>-<hash>-llm-remove-<motif> or -llm-<n> (llm/rewind_ask.h): a rerun
// reads the answers back instead of asking, and a replay from the response cache asks the
// same questions. An applied answer is a rewound kernel the caller evaluates and stores like
// the rewriter's; it is classified by the motif detectors: the first motif present in the
// kernel and no longer present in the answer (the named one first), else unclassified.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "llm/proposer.h"
#include "rewind/rewind.h"
#include "rewrite/motif_states.h"

namespace aoc::rewind {

struct LlmRemoval {
  RewoundMotif row;                  // source "llm"; a status already set means nothing to evaluate
  aoc::rewrite::MotifState label;    // the motif the entry is filed under
  std::string what;                  // the entry title's subject: model removal of "..."
  nlohmann::json provenance;         // source, model, request key, what was asked and removed
  std::string diff;                  // kernel -> rewound kernel
  std::filesystem::path candidate;   // the rewound kernel, when the answer applied
};

class LlmRemover {
 public:
  LlmRemover(aoc::llm::LlmProposer& llm, size_t unnamed) : llm_(llm), unnamed_(unnamed) {}

  // `states`: every motif's state in `kernel`; `named`: motifs to ask for by name; `report`:
  // the kernel's evaluation (its profile goes into the prompt). Requests go one at a time, in
  // the order named then unnamed. Throws aoc::llm::LlmError for what asking again cannot fix
  // (settings, a replay without a recorded answer, the cache); everything else is a row.
  std::vector<LlmRemoval> ask(const aoc::eval::Candidate& kernel, const aoc::eval::CandidateReport& report,
                              const std::vector<aoc::rewrite::MotifState>& states,
                              const std::vector<std::string>& named, const std::filesystem::path& work_dir,
                              const std::string& header_hash);

  struct Counts {
    size_t asked = 0, loaded = 0, applied = 0, unusable = 0, endpoint_errors = 0;
  };
  const Counts& counts() const { return counts_; }
  // Why requests were skipped; after kMaxEndpointFailures endpoint failures in a row the model
  // is not asked again in this run.
  const std::vector<std::string>& notes() const { return notes_; }
  static constexpr int kMaxEndpointFailures = 3;
  aoc::llm::ChatClient& client() { return llm_.client(); }

 private:
  LlmRemoval ask_one(const aoc::eval::Candidate& kernel, const aoc::eval::CandidateReport& report,
                     const std::vector<aoc::rewrite::MotifState>& states, const aoc::rewrite::MotifState* target,
                     uint64_t seed, const std::filesystem::path& dir, const std::string& header_hash);

  aoc::llm::LlmProposer& llm_;
  size_t unnamed_;
  int endpoint_failures_ = 0;
  Counts counts_;
  std::vector<std::string> notes_;
};

}  // namespace aoc::rewind
