#include "search/case_scoring.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

#include "eval/eval_pool.h"
#include "eval/tiling_match.h"

namespace aoc::search {

namespace {

// Each timed case's simulated Task Duration (us).
std::map<std::string, double> case_times(const aoc::eval::CandidateReport& r) {
  std::map<std::string, double> out;
  for (const auto& c : r.cases)
    if (c.sim_us) out[c.name] = *c.sim_us;
  return out;
}

}  // namespace

CaseScoring::CaseScoring(aoc::build::Builder& builder, CaseScoringOptions opt, aoc::eval::ResultStore* store)
    : builder_(builder), opt_(std::move(opt)), store_(store) {}

aoc::eval::CandidateReport CaseScoring::run(const aoc::eval::Candidate& c, const Variant& v,
                                            const std::vector<std::string>& cases, const std::string& set,
                                            uint64_t seed, bool& from_store, double& seconds) {
  aoc::eval::ResultKey key{v.key(), v.kernel->cand.package.name, set, seed, opt_.eval.soc};
  if (store_ != nullptr)
    if (auto r = aoc::eval::recall_report(*store_, key)) {
      from_store = true;
      return *r;
    }
  aoc::eval::CandidateEvalOptions o = opt_.eval;
  o.seed = seed;
  o.case_set = "public";
  o.only_cases = cases;
  o.config = v.config;
  const auto t0 = std::chrono::steady_clock::now();
  aoc::eval::CandidateReport r = aoc::eval::evaluate_candidate(c, builder_, o);
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // An evaluator that could not set up (verdict error) is retried next time, as `ascendopt eval` does.
  if (store_ != nullptr && r.verdict != aoc::eval::Verdict::Error)
    store_->put(key, aoc::eval::to_string(r.verdict), aoc::eval::to_json(r).dump());
  return r;
}

std::string CaseScoring::tiling_only_fingerprint(const Variant& v) {
  aoc::eval::CandidateEvalOptions o = opt_.eval;
  o.config = v.config;
  return aoc::eval::tiling_only_fingerprint(v.kernel->cand, builder_, o, opt_.cases);
}

std::optional<CaseScoring::TilingFailure> CaseScoring::tiling_failure_elsewhere(const Variant& v) {
  const auto known = tiling_failures_.find(v.key());
  if (known != tiling_failures_.end()) return known->second;
  std::vector<std::string> others;
  for (const auto& c : v.kernel->cand.package.cases)
    if (std::find(opt_.cases.begin(), opt_.cases.end(), c.name) == opt_.cases.end()) others.push_back(c.name);
  std::optional<TilingFailure> failure;
  if (!others.empty()) {
    aoc::eval::CandidateEvalOptions o = opt_.eval;
    o.config = v.config;
    const aoc::eval::CandidateReport r = aoc::eval::tiling_only_report(v.kernel->cand, builder_, o, others);
    // An evaluator that could not set up says nothing about the variant: verification decides.
    if (r.verdict != aoc::eval::Verdict::Ok && r.verdict != aoc::eval::Verdict::Error)
      failure = TilingFailure{aoc::eval::to_string(r.verdict), "tiling on the other public cases: " + r.message};
  }
  tiling_failures_[v.key()] = failure;
  return failure;
}

std::string CaseScoring::score(Scored& s, const ScoredPtr& best, bool cascade) {
  const Variant& v = s.variant;
  std::string joined;
  for (const auto& c : opt_.cases) joined += (joined.empty() ? "" : ",") + c;
  if (cascade && opt_.cases.size() > 1) {
    const aoc::eval::CandidateReport r1 =
        run(v.kernel->cand, v, {opt_.cases.front()}, "optimize-stage1:" + opt_.cases.front(), opt_.eval.seed,
            s.from_store, s.seconds);
    if (r1.verdict != aoc::eval::Verdict::Ok) {
      s.eval = evaluation_from_report(r1);
      s.eval.valid = false;
      s.eval.reason = "stage 1 (" + opt_.cases.front() + "): " + s.eval.reason;
      s.verdict = aoc::eval::to_string(r1.verdict);
      s.report = std::make_shared<const aoc::eval::CandidateReport>(r1);
      return "";
    }
  }
  bool recalled = false;
  const aoc::eval::CandidateReport r = run(v.kernel->cand, v, opt_.cases, "optimize:" + joined, opt_.eval.seed, recalled, s.seconds);
  s.from_store = s.from_store || recalled;
  s.eval = evaluation_from_report(r);
  s.verdict = aoc::eval::to_string(r.verdict);
  s.report = std::make_shared<const aoc::eval::CandidateReport>(r);
  double log_sum = 0;
  size_t n = 0;
  for (const auto& cr : r.cases)
    if (cr.t_hw_us && *cr.t_hw_us > 0) {
      log_sum += std::log(*cr.t_hw_us);
      ++n;
    }
  if (n == r.cases.size() && n > 0) s.t_hw_us = std::exp(log_sum / static_cast<double>(n));
  if (s.eval.valid && (!best || s.eval.time_us < best->eval.time_us))
    if (const auto failure = tiling_failure_elsewhere(v)) {
      s.eval.valid = false;
      s.eval.reason = failure->reason;
      s.verdict = failure->verdict;
      return "";  // another configuration with this tiling on the evaluation cases may still accept the others
    }
  return aoc::eval::tiling_fingerprint(r, opt_.cases);
}

std::optional<std::map<std::string, double>> CaseScoring::public_times(const Variant& v, uint64_t hidden_seed) {
  bool recalled = false;
  double seconds = 0;
  const aoc::eval::CandidateReport pub = run(v.kernel->cand, v, {}, "verify:public", hidden_seed, recalled, seconds);
  if (pub.verdict != aoc::eval::Verdict::Ok) return std::nullopt;
  return case_times(pub);
}

Verification CaseScoring::verify(const Variant& v, uint64_t hidden_seed) {
  Verification out;
  bool recalled = false;
  double seconds = 0;
  const auto failure = [](const aoc::eval::CandidateReport& r) {
    return std::string(aoc::eval::to_string(r.verdict)) + (r.message.empty() ? "" : ": " + r.message);
  };
  // Inputs drawn from the hidden seed, not the run's: the verdict then depends only on the
  // variant and the draw, so runs with other search seeds that share the draw (every run of a
  // benchmark) recall a variant's verification from the store instead of repeating it.
  const aoc::eval::CandidateReport pub = run(v.kernel->cand, v, {}, "verify:public", hidden_seed, recalled, seconds);
  if (pub.verdict != aoc::eval::Verdict::Ok) {
    out.message = "public cases: " + failure(pub);
    return out;
  }
  out.public_us = case_times(pub);
  aoc::package::HiddenDraw draw;
  draw.seed = hidden_seed;
  draw.count = kHiddenCount;
  draw.max_elements = kHiddenMaxElements;
  aoc::eval::Candidate hidden = v.kernel->cand;
  hidden.package = aoc::package::with_case_set(v.kernel->cand.package, aoc::package::CaseSet::Hidden, draw);
  const std::string set = "verify:hidden:" + std::to_string(hidden_seed) + ":" + std::to_string(kHiddenCount) + ":" +
                          std::to_string(kHiddenMaxElements);
  const aoc::eval::CandidateReport hid = run(hidden, v, {}, set, hidden_seed, recalled, seconds);
  out.passed = hid.verdict == aoc::eval::Verdict::Ok;
  if (!out.passed) out.message = "hidden draw (seed " + std::to_string(hidden_seed) + "): " + failure(hid);
  return out;
}

}  // namespace aoc::search
