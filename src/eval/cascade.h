// Search-time evaluation in two stages (a cascade), for searches that spend a budget of
// evaluations on many candidates of one operator (tiling configurations, kernel rewrites):
//
//   1. The screen: the candidate's timing cases (the ones its score comes from) plus a cheap
//      correctness probe (by default the smallest public case of each dtype), one trial each.
//      Its score is the geometric mean of the timing cases' simulated Task Durations.
//   2. The full gate, only for a candidate whose screen is valid and faster than the best
//      verified candidate so far (the only kind that could become the best): every public
//      case with both trials (the perturbed second trial catches replayed outputs), then a
//      hidden draw of generated cases, stopping at the first failing case.
//
// The caller keeps the best (search::Evaluator, through search/gated_scoring.h) and passes its
// time to evaluate(): a candidate that passes the gate is the new best, so the best a search
// reports is always fully verified; one that fails the gate is invalid with the gate's reason.
// The fastest valid evaluation among the first n is the best after n, so a search with a
// larger budget also gives the result of every smaller one.
//
//   aoc::eval::Cascade cascade(builder, options, {.timing_cases = {"aligned_2d_fp16"}});
//   std::optional<double> best_us;
//   for (const Candidate& c : proposals) {
//     const CascadeOutcome o = cascade.evaluate(c, {}, best_us);
//     if (o.valid() && o.gate) best_us = o.screen.time_us;   // passed the gate: the new best
//   }
//
// Stage results are kept per (candidate hash, configuration): evaluating a pair again runs
// nothing, so several searches of one operator (the tuner benchmark) share what ran. Not safe
// to share between threads.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build/builder.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"

namespace aoc::eval {

struct CascadeOptions {
  std::vector<std::string> timing_cases;  // public case names the score comes from (required)
  std::vector<std::string> probe_cases;   // empty: default_probe_cases
  int64_t hidden_count = 8;               // cases of the gate's hidden draw (0: no hidden draw)
  int64_t hidden_max_elements = 1 << 20;  // size cap of the hidden cases
  // The hidden draw's seed, one for every candidate; empty: $ASCENDOPT_HIDDEN_SEED, else a
  // fresh one, taken at the first gate.
  std::optional<uint64_t> hidden_seed;
  bool gate = true;  // false: screens only, nothing is verified
};

struct CascadeScreen {
  CandidateReport report;  // the timing and probe cases, one trial
  bool ok = false;
  double time_us = 0;  // geometric mean of the timing cases' Task Durations
  std::string reason;  // why not ok
};

struct CascadeGate {
  bool passed = false;
  std::string message;             // the first failure ("public cases: ..." or "hidden draw ...")
  CandidateReport public_report;   // every public case, two trials (up to the first failure)
  std::optional<CandidateReport> hidden_report;  // when the public cases passed and a draw is asked
};

// How CascadeOutcome::reason() begins when the full gate failed.
inline constexpr std::string_view kGateFailed = "full gate: ";

struct CascadeOutcome {
  CascadeScreen screen;
  std::optional<CascadeGate> gate;  // when the screen could beat the best
  bool valid() const { return screen.ok && (!gate || gate->passed); }
  std::string reason() const;  // why not valid, "" when valid
};

class Cascade {
 public:
  // `base` gives the seed, SoC, limits, harness and temporary folder; its case selection,
  // trials and configuration are set per stage. Throws std::invalid_argument without timing cases.
  Cascade(build::Builder& builder, CandidateEvalOptions base, CascadeOptions opt);

  // The screen, then the gate when the screen is valid and faster than `best_us` (the time of
  // the best verified candidate so far; nullopt: none yet). A valid outcome with a gate is the
  // new best.
  CascadeOutcome evaluate(const Candidate& cand, const TuningConfig& config = {},
                          std::optional<double> best_us = std::nullopt);

  // The stages on their own (kept per candidate and configuration).
  const CascadeScreen& screen(const Candidate& cand, const TuningConfig& config = {});
  const CascadeGate& gate(const Candidate& cand, const TuningConfig& config = {});

  // The cases a screen of `cand` runs: the timing cases, then the probe cases not among them.
  std::vector<std::string> screen_cases(const Candidate& cand) const;
  // The tiling fingerprint (eval/tiling_match.h) over the screened cases: of a screen's report,
  // or, without running the kernel, of `config` from a run of its tiling functions alone.
  std::string screen_fingerprint(const Candidate& cand, const CascadeScreen& s) const;
  std::string tiling_only_fingerprint(const Candidate& cand, const TuningConfig& config);

  size_t screens_run() const { return screens_run_; }  // stages actually run (not from the kept results)
  size_t gates_run() const { return gates_run_; }
  double seconds() const { return seconds_; }           // spent running stages
  std::optional<uint64_t> hidden_seed() const { return opt_.hidden_seed; }
  const CascadeOptions& options() const { return opt_; }

 private:
  std::vector<std::string> probe_for(const Candidate& cand) const;
  CandidateEvalOptions stage_options(const TuningConfig& config, int trials) const;
  build::Builder& builder_;
  CandidateEvalOptions base_;
  CascadeOptions opt_;
  std::map<std::string, CascadeScreen> screens_;
  std::map<std::string, CascadeGate> gates_;
  size_t screens_run_ = 0, gates_run_ = 0;
  double seconds_ = 0;
};

// The probe: per dtype variant, the public case with the fewest input elements that is not a
// timing case (none for a variant whose every case is timed).
std::vector<std::string> default_probe_cases(const aoc::package::OpPackage& p, const std::vector<std::string>& timing_cases);

}  // namespace aoc::eval
