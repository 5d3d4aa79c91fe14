#include "search/evaluator.h"

namespace aoc::search {

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

ScoredPtr Evaluator::same_tiling_as(const Variant& v) {
  const std::string kernel = v.kernel->cand.hash + "|";
  const auto first = by_tiling_.lower_bound(kernel);
  if (first == by_tiling_.end() || first->first.compare(0, kernel.size(), kernel) != 0) return nullptr;  // none to match
  const std::string fp = scoring_.tiling_only_fingerprint(v);
  if (fp.empty()) return nullptr;
  const auto it = by_tiling_.find(kernel + fp);
  return it == by_tiling_.end() ? nullptr : it->second;
}

std::shared_ptr<Scored> Evaluator::charged_entry(const Variant& v, const std::string& origin,
                                                 std::optional<size_t> parent) const {
  auto s = std::make_shared<Scored>();
  s->index = history_.size();
  s->variant = v;
  s->origin = origin;
  s->parent = parent;
  s->spent = budget_.spent();
  return s;
}

Evaluator::Answer Evaluator::request(const Variant& v, const std::string& origin, std::optional<size_t> parent,
                                     bool cascade) {
  const std::string key = v.key();
  if (auto k = known(key)) return {k, true};
  if (budget_.exhausted()) return {};
  if (auto same = same_tiling_as(v)) {
    by_key_[key] = same;
    ++same_tiling_;
    return {same, true};
  }
  if (!budget_.charge(key)) return {};
  auto s = charged_entry(v, origin, parent);
  if (const std::string fp = scoring_.score(*s, best(), cascade); !fp.empty())
    by_tiling_.emplace(v.kernel->cand.hash + "|" + fp, s);
  if (!s->from_store) ++fresh_;
  s->eval.key = config_text(v.config);
  history_.push_back(s);
  by_key_[key] = s;
  if (on_evaluation) on_evaluation(*s);
  return {s, false};
}

Evaluator::Answer Evaluator::record_failure(const std::string& key, const Variant& made_from, const std::string& origin,
                                            std::optional<size_t> parent, const std::string& verdict,
                                            const std::string& reason) {
  if (auto k = known(key)) return {k, true};
  if (!budget_.charge(key)) return {};
  auto s = charged_entry(made_from, origin, parent);
  s->verdict = verdict;
  s->eval.valid = false;
  s->eval.reason = reason;
  s->eval.key = config_text(made_from.config);
  ++fresh_;
  history_.push_back(s);
  by_key_[key] = s;
  if (on_evaluation) on_evaluation(*s);
  return {s, false};
}

}  // namespace aoc::search
