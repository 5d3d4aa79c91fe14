// Experience-guided rewriting (`ascendopt rewrite OP_DIR --guided`, docs/bank.md): the bank
// ranks its entries for the target, the top-k motifs applicable in it are applied alone and
// then in pairs (the second applied to the first's result) as candidate folders, each is
// evaluated on every public case next to the target, and every try is recorded as an adoption
// (helped when the candidate passes and is faster than the target).
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bank/ranking.h"
#include "bank/store.h"
#include "build/builder.h"
#include "eval/candidate_eval.h"
#include "eval/result_store.h"

namespace aoc::bank {

struct GuidedOptions {
  size_t k = 3;          // motifs tried alone
  size_t pair_of = 3;    // pairs among the first this many that worked alone (0: no pairs)
  size_t jobs = 1;
  aoc::eval::CandidateEvalOptions eval;
  std::filesystem::path out_dir;  // candidates go to <out_dir>/<op>-guided-<motif>[+<motif>]
  aoc::eval::ResultStore* store = nullptr;
  std::function<void(const std::string&)> log;
};

struct GuidedTry {
  std::vector<std::string> motifs;
  std::optional<int64_t> entry_id;  // the best entry of the motif (singles)
  std::filesystem::path dir;
  std::string status;  // ok | refused | failed
  std::string reason;
  std::optional<double> speedup;  // target time / candidate time, geomean over the cases
  bool helped = false;
};

struct GuidedResult {
  Target target;
  std::string target_failure;  // the target itself does not pass
  std::vector<Ranked> ranking;
  std::vector<GuidedTry> tries;
  double seconds = 0;
};

// Throws aoc::rewrite::RewriteError when the rewriter cannot read the target, BankError.
GuidedResult guided_rewrite(const std::filesystem::path& target_dir, aoc::build::Builder& builder, Bank& bank,
                            const GuidedOptions& opt);

// Geomean over the cases both reports timed of a.sim_us / b.sim_us (0 when none).
double geomean_ratio(const aoc::eval::CandidateReport& a, const aoc::eval::CandidateReport& b);

nlohmann::json to_json(const GuidedResult& r, size_t show_ranked);

}  // namespace aoc::bank
