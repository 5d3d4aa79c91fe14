// `ascendopt fuzz` (docs/fuzz.md): cases drawn within what an operator declares it supports
// (its [hidden] generator: dtype variants, ranks, innermost lengths, attributes, value ranges,
// special values), run with the simulator and its hazard checker on; each distinct failure is
// shrunk to the smallest case that still fails the same way and printed as an op.toml entry.
// Seeded and resumable: the state after every round is kept in a file.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/builder.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"

namespace aoc::fuzz {

struct FuzzOptions {
  uint64_t seed = 1;              // the draws and the case inputs
  double time_budget_s = 300;     // no new round or shrink step starts after this
  int64_t rounds = 0;             // 0: until the time budget
  int64_t batch = 8;              // cases drawn and run per round
  int64_t max_elements = 100000;  // cap on a drawn case's first-input elements (under [hidden]'s own)
  int64_t max_shrink_runs = 200;  // evaluations one failure may spend shrinking
  std::filesystem::path state_file;  // resumes from and writes to this file ("" : none)
  aoc::eval::CandidateEvalOptions eval;  // soc, limits, harness ...; seed and cases are set here
};

struct Finding {
  std::string signature;  // the failure with its numbers blanked: what "the same failure" means
  std::string verdict, message;
  std::string first_shape, minimal_shape;  // of the first input, as "[a, b]"
  int64_t shrink_runs = 0;
  bool reproduced = true;  // the minimal case fails when appended after the public cases
  std::string case_toml;   // the minimal case as an op.toml [[cases]] entry
};

struct FuzzReport {
  std::string op;
  uint64_t seed = 0;
  int64_t rounds = 0, cases_run = 0, failing_cases = 0;
  bool resumed = false;
  std::vector<Finding> findings;
  double seconds = 0;
};

// Progress: a line of what is being done.
using FuzzProgress = std::function<void(const std::string&)>;

// Throws std::runtime_error when the state file belongs to another operator or seed.
FuzzReport fuzz(const aoc::eval::Candidate& cand, aoc::build::Builder& builder, const FuzzOptions& opt,
                const FuzzProgress& progress = {});

// "verdict: message" with digits and hex addresses blanked, first 160 characters.
std::string failure_signature(const std::string& verdict, const std::string& message);

nlohmann::json to_json(const FuzzReport& r);
FuzzReport fuzz_report_from_json(const nlohmann::json& j);

}  // namespace aoc::fuzz
