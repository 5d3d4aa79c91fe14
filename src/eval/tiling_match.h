// Configurations that change nothing the kernel sees. Two configurations of one kernel whose
// tiling functions hand it the same blockDim, tiling key, workspace sizes and tiling bytes on
// every case (CaseResult::tiling_digest) run the same kernel library on the same inputs the same
// way, on the simulator as on a device: a search that evaluated one knows the other's result
// without running it. Only the tiling is run to find out (in the sandbox, no kernel), and a
// kernel that reads a knob or platform number itself (config_read_by_kernel) never matches.
// The optimizer's evaluator and the tuner's configuration runner both key their results by it.
#pragma once
#include <string>
#include <vector>

#include "build/builder.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"

namespace aoc::eval {

// The tiling digests of `cases` in `r`, joined in that order; "" when a case is missing from
// the report, its tiling failed, or the kernel itself read the configuration.
std::string tiling_fingerprint(const CandidateReport& r, const std::vector<std::string>& cases);

// A run of the tiling functions alone (in the sandbox, no kernel) on the public `cases`, with
// `opt`'s configuration, seed, SoC and limits, stopping at the first case whose tiling fails.
CandidateReport tiling_only_report(const Candidate& c, build::Builder& builder, CandidateEvalOptions opt,
                                   const std::vector<std::string>& cases);

// The same fingerprint from tiling_only_report; "" when a tiling fails.
std::string tiling_only_fingerprint(const Candidate& c, build::Builder& builder, CandidateEvalOptions opt,
                                    const std::vector<std::string>& cases);

}  // namespace aoc::eval
