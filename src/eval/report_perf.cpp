#include "eval/report_perf.h"

#include <iomanip>
#include <sstream>

#include "eval/op_times.h"

namespace aoc::eval {

std::set<std::string> perf_case_names(const aoc::package::OpPackage& p) {
  std::set<std::string> out;
  for (const auto& c : p.cases)
    if (c.perf) out.insert(c.name);
  return out;
}

PerfSpeed perf_speed(const CandidateReport& r, const aoc::package::OpPackage& p) {
  PerfSpeed s;
  const auto names = perf_case_names(p);
  s.perf_cases = names.size();
  for (const auto& c : r.cases) s.perf_cases_run += names.count(c.name);
  // summarise_times gives a time only when every named case that ran is correct and timed;
  // a partial run (--case) has no speed, since a geomean over some shapes is another number.
  if (s.perf_cases > 0 && s.perf_cases_run == s.perf_cases) s.geomean_us = summarise_times(r, names).us;
  return s;
}

PerfSpeed perf_speed(const CandidateReport& r) {
  if (r.package_dir.empty()) return {};
  try {
    return perf_speed(r, aoc::package::load_op_package(r.package_dir));
  } catch (const std::exception&) {
    return {};
  }
}

std::string perf_speed_text(const PerfSpeed& s) {
  std::ostringstream os;
  os << "speed (geomean Task Duration over the " << s.perf_cases << " performance cases, the package's speed): ";
  if (s.perf_cases == 0) return "speed: no performance cases in op.toml (perf = true), so no speed";
  if (s.geomean_us) os << std::fixed << std::setprecision(2) << *s.geomean_us << " us";
  else if (s.perf_cases_run < s.perf_cases)
    os << "- (" << s.perf_cases_run << " of " << s.perf_cases << " ran)";
  else os << "- (a performance case failed or has no time)";
  return os.str();
}

}  // namespace aoc::eval
