#include "cli/bank_cli.h"

#include <iomanip>

#include "bank/store.h"
#include "cli/harness_check.h"

namespace aoc::cli {
namespace fs = std::filesystem;

std::optional<BankEvalSetup> make_bank_eval_setup(const BankEvalFlags& f, std::string& error) {
  BankEvalSetup s;
  s.eval = aoc::eval::default_candidate_eval_options();
  s.eval.seed = f.seed;
  s.eval.soc = f.soc;
  s.eval.only_cases = f.cases;
  aoc::base::set_case_time_limit(s.eval.limits, f.timeout);
  if (std::string missing = harness_missing(s.eval.harness); !missing.empty()) {
    error = std::move(missing);
    return std::nullopt;
  }
  if (const std::string why = aoc::eval::temp_root_problem(s.eval.temp_root); !why.empty()) {
    error = why;
    return std::nullopt;
  }
  s.builder = aoc::build::default_builder_options();
  if (!f.no_store) {
    try {
      s.store = std::make_unique<aoc::eval::ResultStore>(f.store.empty() ? s.builder.cache_dir / "eval-results.sqlite"
                                                                         : fs::path(f.store));
    } catch (const std::exception& e) {
      error = e.what();
      return std::nullopt;
    }
  }
  return s;
}

fs::path bank_path(const std::string& flag) { return flag.empty() ? aoc::bank::default_bank_path() : fs::path(flag); }

void print_ranking(std::ostream& os, const std::vector<aoc::bank::Ranked>& ranked, size_t k) {
  if (ranked.empty()) {
    os << "  the bank has no entries (mine some with ascendopt rewind, or bank import)\n";
    return;
  }
  for (size_t i = 0; i < ranked.size() && i < k; ++i) {
    const auto& r = ranked[i];
    os << "  " << std::setw(2) << i + 1 << ". " << std::fixed << std::setprecision(2) << std::setw(6) << r.score.total
       << "  #" << r.entry.id << " " << r.entry.kind << " " << r.entry.motif << "  " << r.entry.title << "\n"
       << "        why: " << r.score.why << "\n";
  }
}

}  // namespace aoc::cli
