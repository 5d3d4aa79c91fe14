#include "eval/op_times.h"

#include <cmath>
#include <map>

namespace aoc::eval {
namespace fs = std::filesystem;

std::optional<double> geomean(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double log_sum = 0;
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    log_sum += std::log(v);
  }
  return std::exp(log_sum / static_cast<double>(values.size()));
}

TimeSummary summarise_times(const CandidateReport& r, const std::set<std::string>& only) {
  TimeSummary s;
  s.verdict = r.verdict;
  s.message = r.message;
  std::vector<double> sims, hws;
  std::map<std::string, size_t> bound_count;
  std::map<std::string, double> bound_largest_hw;
  bool all_timed = true;
  for (const auto& c : r.cases) {
    if (!only.empty() && !only.count(c.name)) continue;
    ++s.cases;
    const bool correct = c.verdict == Verdict::Ok || c.verdict == Verdict::Suspicious;
    if (!correct || !c.sim_us || !c.t_hw_us) {
      all_timed = false;
      continue;
    }
    sims.push_back(*c.sim_us);
    hws.push_back(*c.t_hw_us);
    if (c.bound.empty()) continue;
    ++bound_count[c.bound];
    bound_largest_hw[c.bound] = std::max(bound_largest_hw[c.bound], *c.t_hw_us);
  }
  if (all_timed && s.cases > 0) {
    s.us = geomean(sims);
    s.t_hw_us = geomean(hws);
  }
  for (const auto& [unit, n] : bound_count) {
    const bool better = s.bound.empty() || n > bound_count.at(s.bound) ||
                        (n == bound_count.at(s.bound) && bound_largest_hw.at(unit) > bound_largest_hw.at(s.bound));
    if (better) s.bound = unit;
  }
  return s;
}

std::optional<fs::path> expert_folder(const fs::path& package_dir) {
  const fs::path e = package_dir / "expert";
  if (fs::is_directory(e / "op_kernel")) return e;
  return std::nullopt;
}

}  // namespace aoc::eval
