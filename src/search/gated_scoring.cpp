#include "search/gated_scoring.h"

#include <memory>

namespace aoc::search {

namespace {

// The verdict of the stage a failed gate stopped at: the public cases, else the hidden draw
// ("error" when the draw could not be made).
std::string gate_verdict(const aoc::eval::CascadeGate& g) {
  if (g.public_report.verdict != aoc::eval::Verdict::Ok) return aoc::eval::to_string(g.public_report.verdict);
  return g.hidden_report ? aoc::eval::to_string(g.hidden_report->verdict) : aoc::eval::to_string(aoc::eval::Verdict::Error);
}

}  // namespace

GatedScoring::GatedScoring(aoc::build::Builder& builder, aoc::eval::CandidateEvalOptions opt,
                           std::vector<std::string> tuning_cases, std::vector<std::string> probe_cases, bool gate)
    : cascade_(builder, std::move(opt),
               aoc::eval::CascadeOptions{.timing_cases = std::move(tuning_cases),
                                         .probe_cases = std::move(probe_cases),
                                         .hidden_count = kHiddenCount,
                                         .hidden_max_elements = kHiddenMaxElements,
                                         .hidden_seed = std::nullopt,
                                         .gate = gate}) {}

Evaluation GatedScoring::from_screen(const aoc::eval::CascadeScreen& s) const {
  Evaluation e;
  e.valid = s.ok;
  e.reason = s.reason;
  e.time_us = s.time_us;
  add_case_details(e, s.report, &cascade_.options().timing_cases);
  return e;
}

Evaluation GatedScoring::screen(const Variant& v) { return from_screen(cascade_.screen(v.kernel->cand, v.config)); }

std::string GatedScoring::tiling_only_fingerprint(const Variant& v) {
  return cascade_.tiling_only_fingerprint(v.kernel->cand, v.config);
}

std::string GatedScoring::score(Scored& s, const ScoredPtr& best, bool) {
  const aoc::eval::Candidate& cand = s.variant.kernel->cand;
  const double seconds_before = cascade_.seconds();
  const std::optional<double> best_us = best ? std::optional<double>(best->eval.time_us) : std::nullopt;
  const aoc::eval::CascadeOutcome o = cascade_.evaluate(cand, s.variant.config, best_us);
  s.seconds = cascade_.seconds() - seconds_before;
  s.eval = from_screen(o.screen);
  s.verdict = aoc::eval::to_string(o.screen.report.verdict);
  s.report = std::make_shared<const aoc::eval::CandidateReport>(o.screen.report);
  if (o.gate && !o.gate->passed) {
    s.eval.valid = false;
    s.eval.reason = o.reason();
    s.verdict = gate_verdict(*o.gate);
    return "";
  }
  return cascade_.screen_fingerprint(cand, o.screen);
}

Verification GatedScoring::verify(const Variant& v) {
  const aoc::eval::CascadeGate& g = cascade_.gate(v.kernel->cand, v.config);
  return Verification{g.passed, g.message};
}

}  // namespace aoc::search
