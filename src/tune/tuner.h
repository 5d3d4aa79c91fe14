// `ascendopt tune`: profiling-in-the-loop search for the best tiling configuration of one
// operator package (or candidate). Steps:
//   1. tuning cases: the package's performance cases (without any, the largest public case
//      of each dtype); one evaluation = one configuration run on all of them, and the time is
//      their geometric mean, the package's speed;
//   2. the baseline (empty configuration) runs first; the knobs its tiling function declared
//      plus the platform's cores and UB make the search space;
//   3. search (evolve or random) within the budget, starting from the baseline and, when
//      present, the repository's configuration for this (operator, shape class, dtype, SoC);
//   4. each evaluation screens the tuning cases plus a correctness probe; a configuration
//      faster than the best verified one pays the full gate (every public case, both trials,
//      a hidden draw the search never saw) before it becomes the best, so the result is always
//      verified (the baseline when nothing faster passes);
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
#include "eval/cascade.h"
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

struct Verification {
  bool passed = false;
  std::string message;  // the first failing case when not passed
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
  Verification verification;        // of the reported best (all public cases + hidden draw)
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

// Evaluates configurations of `cand` through a cascade (eval/cascade.h): the screen runs the
// tuning cases (the time is their geometric mean) plus a correctness probe, one trial each;
// the full gate (every public case with both trials, then a hidden draw of kHiddenCount
// generated cases of at most kHiddenMaxElements elements, one seed per runner from
// $ASCENDOPT_HIDDEN_SEED or fresh) runs only for a configuration that could become the best.
// Results are kept per configuration, so several searches of one operator (the benchmark)
// pay for each configuration once. A configuration whose tiling equals an evaluated one's on
// every screened case (eval/tiling_match.h) gets that one's evaluation, marked free, after a
// run of its tiling alone: it would screen the same. (An evaluation the full gate overturned is
// not reused: the gate runs cases the screen does not, where the tilings may differ.)
class ConfigRunner {
 public:
  // gate = false: screens only (evaluate() verifies nothing and best() stays empty).
  ConfigRunner(const eval::Candidate& cand, build::Builder& builder, eval::CandidateEvalOptions opt,
               std::vector<std::string> tuning_cases, bool gate = true);
  // The screen of a configuration, not counted as an evaluation of a search.
  search::Evaluation run(const eval::TuningConfig& c);
  // One evaluation of a search: the screen, then the full gate when the screen is faster than
  // the best verified configuration; a configuration failing the gate is invalid ("full gate: ...").
  // A configuration with an evaluated one's tiling gets its evaluation with `free` set.
  search::Evaluation evaluate(const eval::TuningConfig& c);
  // The full gate on its own.
  Verification verify(const eval::TuningConfig& c);
  // The verified best of the evaluations since the last new_search().
  const std::optional<eval::CascadeBest>& best() const { return cascade_.best(); }
  // Forgets the best and the tilings matched so far (a search knows only what it evaluated);
  // keeps the stages' results.
  void new_search() {
    cascade_.new_search();
    by_tiling_.clear();
  }
  static constexpr int64_t kHiddenCount = 8;
  static constexpr int64_t kHiddenMaxElements = 1 << 20;
  std::optional<uint64_t> hidden_seed() const { return cascade_.hidden_seed(); }
  const std::vector<std::string>& tuning_cases() const { return cascade_.options().timing_cases; }
  size_t runs() const { return cascade_.screens_run(); }    // configurations screened
  size_t gates() const { return cascade_.gates_run(); }     // configurations that paid the full gate
  double seconds() const { return cascade_.seconds(); }

 private:
  search::Evaluation from_screen(const eval::CascadeScreen& s) const;
  std::optional<search::Evaluation> same_tiling_as(const eval::TuningConfig& c);
  const eval::Candidate& cand_;
  eval::Cascade cascade_;
  std::map<std::string, search::Evaluation> by_tiling_;  // tiling fingerprint over the screened cases -> evaluation
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
// "bf16+fp16+fp32"-style dtype label and the shape class of the tuning cases.
RepoKey repository_key(const aoc::package::OpPackage& p, const std::vector<std::string>& cases, const std::string& soc,
                       int64_t max_elements = 0);

// Throws TuneError when the package cannot be tuned (does not load, baseline fails ...).
TuneReport tune(const std::filesystem::path& op_dir, build::Builder& builder, const TuneOptions& opt);

// After a search through runner.evaluate(): the verified best (the baseline, verified, when
// no configuration passed the gate) and the configurations the gate rejected.
void take_verified_best(TuneReport& r, ConfigRunner& runner);

}  // namespace aoc::tune
