#include "search/methods.h"

#include "search/method_runs.h"

namespace aoc::search {

const std::vector<Method>& methods() {
  static const std::vector<Method> all = {
      {"optimize", "episodes of host search and kernel rewriting, the next chosen by a bandit", true,
       [](SearchContext& c) { run_episodic(c, true, true); }},
      {"best-of-n", "independent samples from the original, no feedback", true, run_best_of_n},
      {"openevolve", "islands, MAP-Elites and an archive after OpenEvolve", true, run_openevolve},
      {"random", "random proposers on random evaluated parents", false, run_random},
      {"tune-only", "the host search episodes alone", false, [](SearchContext& c) { run_episodic(c, true, false); }},
      {"rewrite-only", "the kernel rewriting episodes alone", true,
       [](SearchContext& c) { run_episodic(c, false, true); }},
  };
  return all;
}

const Method* find_method(const std::string& name) {
  for (const auto& m : methods())
    if (m.name == name) return &m;
  return nullptr;
}

const Method& default_method() { return methods().front(); }

std::string method_names() {
  const auto& all = methods();
  std::string out;
  for (size_t i = 0; i < all.size(); ++i)
    out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
  return out;
}

std::function<bool(const std::string&)> seen_in(const Evaluator& ev) {
  return [&ev](const std::string& key) { return ev.known(key) != nullptr; };
}

Evaluator::Answer evaluate_proposal(Evaluator& ev, const Proposal& p, std::optional<size_t> parent, bool cascade) {
  if (!p.failure.empty()) return ev.record_failure(p.failure_key, p.variant, p.origin, parent, p.failure_verdict, p.failure);
  return ev.request(p.variant, p.origin, parent, cascade);
}

}  // namespace aoc::search
