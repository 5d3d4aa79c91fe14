#include "llm/rewind_ask.h"

#include "llm/proposal_record.h"

namespace aoc::llm {
namespace fs = std::filesystem;

RewindAnswer ask_rewound_kernel(LlmProposer& llm, const RewindAsk& ask) {
  RewindAnswer out;
  if (fs::exists(ask.dir / "proposal.json")) {
    out.proposal = read_proposal_record(ask.dir);
    out.loaded = true;
    return out;
  }
  std::error_code ec;
  fs::remove_all(ask.dir, ec);  // what an attempt killed before its record left
  fs::create_directories(ask.dir);
  ProposalRequest req;
  req.mode = ProposalMode::Rewind;
  req.parent = ask.kernel;
  req.parent_report = ask.report;
  req.rewind_target = ask.target;
  req.seed = ask.seed;
  req.out_dir = ask.dir / "candidate";
  try {
    out.proposal = llm.propose(req);
    if (out.proposal.status == Proposal::Status::EndpointError) fs::remove_all(ask.dir, ec);
    else write_proposal_record(out.proposal, llm.client(), ask.dir);
  } catch (...) {
    fs::remove_all(ask.dir, ec);
    throw;
  }
  return out;
}

}  // namespace aoc::llm
