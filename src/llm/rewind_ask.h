// One request for a rewound kernel: a strong kernel with one optimization taken out, the
// model's counterpart of removing a motif with the rewriter (docs/rewind.md, docs/llm.md).
// The attempt folder gets the proposal's record (proposal_record.h) and, when the answer
// applies, the rewound kernel as a candidate folder in <dir>/candidate. A folder that already
// holds a record is read back instead of asking again, so a rewind run can resume. Evaluating
// the rewound kernel is the caller's job.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "llm/proposer.h"

namespace aoc::llm {

struct RewindAsk {
  const aoc::eval::Candidate* kernel = nullptr;          // the strong kernel (required)
  const aoc::eval::CandidateReport* report = nullptr;    // its evaluation, for the profile (optional)
  std::string target;           // what to remove ("double buffering"); empty: the model chooses
  uint64_t seed = 0;            // distinct per request (a second try on the same kernel, a motif index)
  std::filesystem::path dir;    // the attempt folder
};

struct RewindAnswer {
  Proposal proposal;     // Applied: proposal.candidate_dir is the rewound kernel; proposal.removed what went
  bool loaded = false;   // read from an earlier run's folder, no request made
};

// Throws LlmError (Config, ReplayMiss, Cache) and std::runtime_error (unreadable sources, a
// folder that cannot be written, a record that cannot be read). An endpoint error writes nothing.
RewindAnswer ask_rewound_kernel(LlmProposer& llm, const RewindAsk& ask);

}  // namespace aoc::llm
