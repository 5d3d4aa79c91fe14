#include "optimize/evaluator.h"

#include <chrono>

#include <nlohmann/json.hpp>

namespace aoc::optimize {

Evaluator::Evaluator(aoc::eval::Builder& builder, EvaluatorOptions opt, size_t budget, aoc::eval::ResultStore* store)
    : builder_(builder), opt_(std::move(opt)), budget_(budget), store_(store) {}

ScoredPtr Evaluator::known(const std::string& key) const {
  const auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : it->second;
}

ScoredPtr Evaluator::best() const {
  ScoredPtr b;
  for (const auto& s : history_)
    if (s->eval.valid && (!b || s->eval.time_us < b->eval.time_us)) b = s;
  return b;
}

aoc::eval::CandidateReport Evaluator::run(const Variant& v, const std::vector<std::string>& cases,
                                          const std::string& set, bool& from_store, double& seconds) {
  aoc::eval::ResultKey key{v.key(), v.kernel->cand.package.name, set, opt_.eval.seed, opt_.eval.soc};
  if (store_ != nullptr)
    if (auto stored = store_->find(key)) {
      from_store = true;
      return aoc::eval::report_from_json(nlohmann::json::parse(*stored));
    }
  aoc::eval::CandidateEvalOptions o = opt_.eval;
  o.case_set = "public";
  o.only_cases = cases;
  o.config = v.config;
  const auto t0 = std::chrono::steady_clock::now();
  aoc::eval::CandidateReport r = aoc::eval::evaluate_candidate(v.kernel->cand, builder_, o);
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++fresh_;
  // An evaluator that could not set up (verdict error) is retried next time, as `ascendopt eval` does.
  if (store_ != nullptr && r.verdict != aoc::eval::Verdict::Error)
    store_->put(key, aoc::eval::to_string(r.verdict), aoc::eval::to_json(r).dump());
  return r;
}

ScoredPtr Evaluator::evaluate(const Variant& v, const std::string& origin, std::optional<size_t> parent,
                              bool cascade) {
  const std::string key = v.key();
  if (auto k = known(key)) return k;
  if (!budget_.charge(key)) return nullptr;
  auto s = std::make_shared<Scored>();
  s->index = history_.size();
  s->variant = v;
  s->origin = origin;
  s->parent = parent;
  s->spent = budget_.spent();
  std::string joined;
  for (const auto& c : opt_.cases) joined += (joined.empty() ? "" : ",") + c;
  bool stage1_failed = false;
  if (cascade && opt_.cases.size() > 1) {
    const aoc::eval::CandidateReport r1 =
        run(v, {opt_.cases.front()}, "optimize-stage1:" + opt_.cases.front(), s->from_store, s->seconds);
    if (r1.verdict != aoc::eval::Verdict::Ok) {
      stage1_failed = true;
      s->eval = aoc::tune::evaluation_from_report(r1);
      s->eval.valid = false;
      s->eval.reason = "stage 1 (" + opt_.cases.front() + "): " + s->eval.reason;
      s->verdict = aoc::eval::to_string(r1.verdict);
    }
  }
  if (!stage1_failed) {
    bool recalled = false;
    const aoc::eval::CandidateReport r = run(v, opt_.cases, "optimize:" + joined, recalled, s->seconds);
    s->from_store = s->from_store || recalled;
    s->eval = aoc::tune::evaluation_from_report(r);
    s->verdict = aoc::eval::to_string(r.verdict);
  }
  s->eval.key = config_text(v.config);
  history_.push_back(s);
  by_key_[key] = s;
  if (on_evaluation) on_evaluation(*s);
  return s;
}

}  // namespace aoc::optimize
