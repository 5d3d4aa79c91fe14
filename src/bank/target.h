// What the bank needs to know of a target kernel to rank entries for it: each motif's state
// (the detector, run once) and its context, from an evaluation report when there is one.
#pragma once
#include <optional>
#include <vector>

#include "bank/ranking.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "rewrite/motif_states.h"

namespace aoc::bank {

// `report`: an evaluation of the target with a SoC (its bound pipe and ratios), or nullptr
// for the package facts only (dtypes, size class of the public cases).
Target make_target(const aoc::eval::Candidate& c, const std::vector<aoc::rewrite::MotifState>& states,
                   const aoc::eval::CandidateReport* report);

}  // namespace aoc::bank
