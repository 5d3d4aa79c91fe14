#include "search/evaluation.h"

#include <algorithm>
#include <cmath>

namespace aoc::search {

Evaluation evaluation_from_report(const eval::CandidateReport& rep) {
  Evaluation e;
  e.valid = rep.verdict == eval::Verdict::Ok && !rep.cases.empty();
  if (!e.valid)
    e.reason = std::string(eval::to_string(rep.verdict)) + ": " +
               (rep.message.empty() ? std::string("verdict ") + eval::to_string(rep.verdict) : rep.message);
  for (const auto& cr : rep.cases)
    if (!cr.sim_us && e.valid) {
      e.valid = false;
      e.reason = "case " + cr.name + " has no simulated time (no SoC?)";
    }
  add_case_details(e, rep);
  if (e.valid) {
    double log_sum = 0;
    for (const auto& c : e.cases) log_sum += std::log(std::max(c.sim_us, 1e-9));
    e.time_us = std::exp(log_sum / static_cast<double>(e.cases.size()));
  }
  return e;
}

void add_case_details(Evaluation& e, const eval::CandidateReport& rep, const std::vector<std::string>* timed) {
  for (const auto& cr : rep.cases) {
    e.platform_reads |= cr.platform_reads;
    for (const auto& k : cr.knobs)
      if (std::none_of(e.knobs.begin(), e.knobs.end(), [&](const eval::KnobDecl& d) { return d.name == k.name; }))
        e.knobs.push_back(k);
    if (cr.sim_us && (!timed || std::find(timed->begin(), timed->end(), cr.name) != timed->end()))
      e.cases.push_back({cr.name, *cr.sim_us, cr.block_dim, cr.bound_pipe, cr.profile});
  }
}

}  // namespace aoc::search
