#include "eval/cascade.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "eval/tiling_match.h"
#include "package/case_gen.h"

namespace aoc::eval {

namespace {

using Clock = std::chrono::steady_clock;

std::string key_of(const Candidate& cand, const TuningConfig& config) {
  return cand.hash + "|" + to_json(config).dump();
}

std::string first_failure(const CandidateReport& r) {
  return r.message.empty() ? std::string("verdict ") + to_string(r.verdict) : r.message;
}

}  // namespace

std::string CascadeOutcome::reason() const {
  if (!screen.ok) return screen.reason;
  if (gate && !gate->passed) return std::string(kGateFailed) + gate->message;
  return "";
}

std::vector<std::string> default_probe_cases(const aoc::package::OpPackage& p, const std::vector<std::string>& timing_cases) {
  std::map<size_t, size_t> smallest;  // variant -> case index
  for (size_t i = 0; i < p.cases.size(); ++i) {
    const auto& c = p.cases[i];
    if (std::find(timing_cases.begin(), timing_cases.end(), c.name) != timing_cases.end()) continue;
    const auto it = smallest.find(c.variant);
    if (it == smallest.end() ||
        aoc::package::case_input_elements(p, c) < aoc::package::case_input_elements(p, p.cases[it->second]))
      smallest[c.variant] = i;
  }
  std::vector<std::string> out;
  for (const auto& [variant, i] : smallest) out.push_back(p.cases[i].name);
  return out;
}

Cascade::Cascade(build::Builder& builder, CandidateEvalOptions base, CascadeOptions opt)
    : builder_(builder), base_(std::move(base)), opt_(std::move(opt)) {
  if (opt_.timing_cases.empty()) throw std::invalid_argument("a cascade needs at least one timing case");
}

// Public cases (the caller's selection is the stage's to make), up to the first failure.
CandidateEvalOptions Cascade::stage_options(const TuningConfig& config, int trials) const {
  CandidateEvalOptions o = base_;
  o.case_set = "public";
  o.only_cases.clear();
  o.config = config;
  o.trials = trials;
  o.stop_at_failure = true;
  return o;
}

std::vector<std::string> Cascade::probe_for(const Candidate& cand) const {
  return opt_.probe_cases.empty() ? default_probe_cases(cand.package, opt_.timing_cases) : opt_.probe_cases;
}

std::vector<std::string> Cascade::screen_cases(const Candidate& cand) const {
  std::vector<std::string> cases = opt_.timing_cases;
  for (const auto& name : probe_for(cand))
    if (std::find(cases.begin(), cases.end(), name) == cases.end()) cases.push_back(name);
  return cases;
}

std::string Cascade::screen_fingerprint(const Candidate& cand, const CascadeScreen& s) const {
  return tiling_fingerprint(s.report, screen_cases(cand));
}

std::string Cascade::tiling_only_fingerprint(const Candidate& cand, const TuningConfig& config) {
  return eval::tiling_only_fingerprint(cand, builder_, stage_options(config, 1), screen_cases(cand));
}

const CascadeScreen& Cascade::screen(const Candidate& cand, const TuningConfig& config) {
  const std::string key = key_of(cand, config);
  if (auto it = screens_.find(key); it != screens_.end()) return it->second;
  const auto t0 = Clock::now();
  CandidateEvalOptions o = stage_options(config, 1);
  o.only_cases = screen_cases(cand);
  CascadeScreen s;
  s.report = evaluate_candidate(cand, builder_, o);
  s.ok = s.report.verdict == Verdict::Ok && !s.report.cases.empty();
  if (!s.ok) s.reason = std::string(to_string(s.report.verdict)) + ": " + first_failure(s.report);
  double log_sum = 0;
  size_t timed = 0;
  for (const auto& cr : s.report.cases) {
    if (std::find(opt_.timing_cases.begin(), opt_.timing_cases.end(), cr.name) == opt_.timing_cases.end()) continue;
    if (!cr.sim_us) {
      if (s.ok) s.reason = "case " + cr.name + " has no simulated time (no SoC?)";
      s.ok = false;
      continue;
    }
    log_sum += std::log(std::max(*cr.sim_us, 1e-9));
    ++timed;
  }
  if (s.ok && timed != opt_.timing_cases.size()) {
    s.ok = false;
    s.reason = "not every timing case ran";
  }
  if (s.ok) s.time_us = std::exp(log_sum / static_cast<double>(timed));
  ++screens_run_;
  seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
  return screens_[key] = std::move(s);
}

const CascadeGate& Cascade::gate(const Candidate& cand, const TuningConfig& config) {
  const std::string key = key_of(cand, config);
  if (auto it = gates_.find(key); it != gates_.end()) return it->second;
  const auto t0 = Clock::now();
  const CandidateEvalOptions o = stage_options(config, 2);
  CascadeGate g;
  g.public_report = evaluate_candidate(cand, builder_, o);
  if (g.public_report.verdict != Verdict::Ok) {
    g.message = "public cases: " + first_failure(g.public_report);
  } else if (opt_.hidden_count <= 0) {
    g.passed = true;
  } else {
    // Generated cases no screen saw, the same draw for every candidate.
    aoc::package::HiddenDraw draw;
    try {
      if (!opt_.hidden_seed) opt_.hidden_seed = aoc::package::hidden_seed_from_environment();
      draw.seed = *opt_.hidden_seed;
      draw.count = opt_.hidden_count;
      draw.max_elements = opt_.hidden_max_elements;
      Candidate hidden = cand;
      hidden.package = aoc::package::with_case_set(cand.package, aoc::package::CaseSet::Hidden, draw);
      g.hidden_report = evaluate_candidate(hidden, builder_, o);
      g.passed = g.hidden_report->verdict == Verdict::Ok;
      if (!g.passed) g.message = "hidden draw (seed " + std::to_string(draw.seed) + "): " + first_failure(*g.hidden_report);
    } catch (const std::exception& e) {
      g.message = std::string("hidden draw: ") + e.what();
    }
  }
  ++gates_run_;
  seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
  return gates_[key] = std::move(g);
}

CascadeOutcome Cascade::evaluate(const Candidate& cand, const TuningConfig& config, std::optional<double> best_us) {
  CascadeOutcome out;
  out.screen = screen(cand, config);
  if (!out.screen.ok || !opt_.gate) return out;
  if (best_us && !(out.screen.time_us < *best_us)) return out;
  out.gate = gate(cand, config);
  return out;
}

}  // namespace aoc::eval
