// `ascendopt optimize OP_DIR`: one operator, one method, one budget of evaluations.
//   1. the evaluation cases (by default the largest public case of each dtype with at most
//      65536 input elements, as tune-bench uses) and the baseline, the first evaluation: a
//      baseline that fails is an OptimizeError, never a search;
//   2. the method (search/methods.h) spends the budget through the one Evaluator;
//   3. the fastest variants (up to 3, best first) are verified on every public case and a
//      hidden draw; the first that passes is the result, else the baseline (verified too);
//   With LLM settings (llm: docs/llm.md) the methods also ask a model for kernels
//   (llm_proposer.h): its attempts are folders under kernels/, its token and cost totals
//   go into the report;
//   4. outputs under the run folder: best/ (the winning kernel as a candidate folder, its
//      configuration in best/tuning.json), best.diff against the input, report.json (with
//      the lineage: each accepted step from the baseline to the best, its gain and the
//      profile before and after) and summary.txt.
// The run folder also holds the rewritten kernels, and the result store holds every
// evaluation: the same command again resumes a killed run (evaluator.h).
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llm/llm_options.h"
#include "llm/usage.h"
#include "search/methods.h"

namespace aoc::optimize {

class OptimizeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptimizeOptions {
  const aoc::search::Method* method = &aoc::search::default_method();
  size_t budget = 16;
  uint64_t seed = 1;
  std::string soc = "Ascend910B1";
  std::vector<std::string> cases;     // empty: the default evaluation cases
  int64_t max_case_elements = 65536;  // for the default cases
  std::filesystem::path out_dir;      // the run folder (required)
  std::filesystem::path store_file;   // empty: no result store (no resume)
  std::filesystem::path bank_file;    // set: kernel motifs chosen by this experience bank, else at random
  aoc::eval::CandidateEvalOptions eval;
  size_t verify_candidates = 3;
  // LLM settings: the optimize, rewrite-only, best-of-n and openevolve methods use a model
  // (llm_proposer.h); the key comes from the variable they name and is written nowhere.
  std::optional<aoc::llm::LlmOptions> llm;
  std::function<void(const search::Scored&, size_t budget)> progress;
  std::function<void(const std::string&)> log;
};

struct LineageStep {
  size_t index = 0;  // evaluation number of the variant this step made
  std::string origin;
  double before_us = 0, after_us = 0;
  std::string bound_before, bound_after;             // busiest pipe of the slowest evaluation case
  std::map<std::string, double> profile_before, profile_after;  // its pipe times (us)
};

struct LlmRunInfo {
  nlohmann::json settings;  // aoc::llm::to_json: endpoint, model, the key's variable name
  aoc::llm::UsageTotals usage;
  size_t asked = 0, loaded = 0, applied = 0, unusable = 0, endpoint_errors = 0;  // proposals
};

// One performance case's simulated time, baseline and best (verification's public stage).
struct PerfCaseTimes {
  std::string name;
  double baseline_us = 0, best_us = 0;
  double speedup() const { return baseline_us / best_us; }
};
double geomean_speedup(const std::vector<PerfCaseTimes>& cases);

struct OptimizeReport {
  std::string op, package_dir, soc;
  const aoc::search::Method* method = &aoc::search::default_method();
  std::string bank;  // the experience bank that ordered kernel motifs; empty: random order
  size_t budget = 0;
  uint64_t seed = 0;
  std::vector<std::string> cases;
  std::vector<search::ScoredPtr> history;
  std::vector<std::string> episodes, notes;
  double baseline_us = 0, best_us = 0;
  search::ScoredPtr best;  // the verified result (the baseline when nothing faster passed)
  bool verified = false;
  std::string verification;
  std::optional<uint64_t> hidden_seed;
  std::vector<std::string> rejected;  // faster variants that failed verification, with why
  std::vector<LineageStep> lineage;
  size_t fresh_runs = 0, recalled = 0;
  size_t same_tiling = 0;  // configurations answered by an evaluated variant's tiling (not charged)
  double seconds = 0;
  // best/ holds the configuration in its sources (rewrite/pin_config.h), or only in tuning.json;
  // what was written or why not.
  bool config_in_sources = false;
  std::string config_pinning;
  std::string diff;  // best/ against the input, sources and configuration
  std::optional<LlmRunInfo> llm;
  double speedup() const { return best_us > 0 ? baseline_us / best_us : 1.0; }
  // The verified best against the baseline on every performance case of the package (empty
  // when it has none or the baseline fails one): the speed a user of the operator gets.
  std::vector<PerfCaseTimes> perf_cases;
  double perf_speedup() const { return geomean_speedup(perf_cases); }
  // Best verified-or-not speedup within the first n evaluations (progress curve).
  std::vector<double> progress_curve() const;
};

OptimizeReport optimize(const std::filesystem::path& op_dir, aoc::build::Builder& builder, const OptimizeOptions& opt);

nlohmann::json to_json(const OptimizeReport& r);
std::string summary_text(const OptimizeReport& r);

}  // namespace aoc::optimize
