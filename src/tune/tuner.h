// `ascendopt tune`: profiling-in-the-loop search for the best tiling configuration of one
// operator package (or candidate). Steps:
//   1. tuning cases: the package's performance cases (without any, the largest public case
//      of each dtype); one evaluation = one configuration run on all of them, and the time is
//      their geometric mean, the package's speed;
//   2. the baseline (empty configuration) runs first; the knobs its tiling function declared
//      plus the platform's cores and UB make the search space;
//   3. search (evolve or random) within the budget, starting from the baseline and, when
//      present, the repository's configuration for this (operator, shape class, dtype, SoC);
//   4. each evaluation goes through the search stack's Evaluator with the gated scoring
//      (search/gated_scoring.h): the tuning cases plus a correctness probe are screened, and a
//      configuration faster than the best verified one pays the full gate (every public case,
//      both trials, a hidden draw the search never saw) before it becomes the best, so the
//      result is always verified (the baseline when nothing faster passes);
//   5. a verified improvement is stored in the repository.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "search/gated_scoring.h"
#include "search/host_search.h"
#include "tune/repository.h"

namespace aoc::tune {

struct TuneOptions {
  search::SearchOptions search;
  std::string soc = "Ascend910B1";
  std::vector<std::string> tuning_cases;  // empty: default_tuning_cases(package, max_case_elements)
  int64_t max_case_elements = 0;          // 0: every performance case
  bool use_repository = true;             // read and update it
  std::filesystem::path repository_file;  // empty: <cache>/tune/repository.json
  eval::CandidateEvalOptions eval;        // harness, limits, temp folder (seed is search.seed)
  search::ProgressFn progress;
};

struct TuneReport {
  std::string op, package_dir, candidate_hash, soc;
  search::HostMethod method = search::HostMethod::Evolve;
  size_t budget = 0;
  uint64_t seed = 0;
  std::vector<std::string> tuning_cases;
  bool tuning_cases_are_perf = false;  // all of them are performance cases: the time is the package's speed
  RepoKey repo_key;
  std::optional<RepoEntry> repository_start;  // the stored configuration the search started from
  bool repository_updated = false;
  search::Space space;
  search::SearchResult search;
  double baseline_us = 0;
  double best_us = 0;
  eval::TuningConfig best;  // empty: the baseline stayed best
  std::string best_key;
  search::Verification verification;  // of the reported best (all public cases + hidden draw)
  std::optional<uint64_t> hidden_seed;
  std::vector<std::string> rejected;  // faster configurations that failed verification, with why
  size_t gates = 0;  // evaluations that paid the full gate (eval/cascade.h)
  double seconds = 0;
  double seconds_per_evaluation = 0;
  double speedup() const { return best_us > 0 ? baseline_us / best_us : 1.0; }
};

class TuneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The cases a search is scored on. A package with performance cases (`perf = true`) is judged
// by the geomean over them, so those are the tuning cases: the ones with at most
// `max_elements` input elements (all when 0), or the smallest when none is that small. Without
// performance cases: the largest public case (by input elements) of each dtype variant, in
// variant order (with `max_elements`, the largest at or under it, the smallest when none is),
// then the fitting case with the longest rows when it has longer rows than all of those.
std::vector<std::string> default_tuning_cases(const aoc::package::OpPackage& p, int64_t max_elements = 0);
// The correctness probe of a search's screen: the smallest public case of each dtype (eval's
// default) plus the ordinary public case with the longest rows, so that a configuration whose
// tiles cannot hold long rows fails at the screen instead of at the full gate.
std::vector<std::string> tuning_probe_cases(const aoc::package::OpPackage& p, const std::vector<std::string>& timing_cases);
// The scoring of a tuning of `cand` on `tuning_cases`, probed with tuning_probe_cases; gate =
// false: screens only (a benchmark's unverified run).
search::GatedScoring tuning_scoring(const eval::Candidate& cand, build::Builder& builder, eval::CandidateEvalOptions opt,
                                    const std::vector<std::string>& tuning_cases, bool gate = true);

// "bf16+fp16+fp32"-style dtype label and the shape class of the tuning cases.
RepoKey repository_key(const aoc::package::OpPackage& p, const std::vector<std::string>& cases, const std::string& soc,
                       int64_t max_elements = 0);

// Throws TuneError when the package cannot be tuned (does not load, baseline fails ...).
TuneReport tune(const std::filesystem::path& op_dir, build::Builder& builder, const TuneOptions& opt);

}  // namespace aoc::tune
