#include "optimize/methods.h"

namespace aoc::optimize {

namespace {
struct Named {
  Method m;
  const char* name;
};
constexpr Named kNames[] = {{Method::Optimize, "optimize"}, {Method::BestOfN, "best-of-n"},
                            {Method::OpenEvolve, "openevolve"}, {Method::Random, "random"},
                            {Method::TuneOnly, "tune-only"},   {Method::RewriteOnly, "rewrite-only"}};
}  // namespace

std::optional<Method> parse_method(const std::string& s) {
  for (const auto& n : kNames)
    if (s == n.name) return n.m;
  return std::nullopt;
}

const char* to_string(Method m) {
  for (const auto& n : kNames)
    if (m == n.m) return n.name;
  return "?";
}

const std::vector<Method>& all_methods() {
  static const std::vector<Method> all = {Method::Optimize, Method::BestOfN,  Method::OpenEvolve,
                                          Method::Random,   Method::TuneOnly, Method::RewriteOnly};
  return all;
}

std::function<bool(const std::string&)> seen_in(const Evaluator& ev) {
  return [&ev](const std::string& key) { return ev.known(key) != nullptr; };
}

ScoredPtr evaluate_proposal(Evaluator& ev, const Proposal& p, std::optional<size_t> parent, bool cascade) {
  if (!p.failure.empty()) return ev.record_failure(p.failure_key, p.variant, p.origin, parent, p.failure_verdict, p.failure);
  return ev.evaluate(p.variant, p.origin, parent, cascade);
}

void run_method(Method m, SearchContext& ctx) {
  switch (m) {
    case Method::Optimize: return run_episodic(ctx, true, true);
    case Method::TuneOnly: return run_episodic(ctx, true, false);
    case Method::RewriteOnly: return run_episodic(ctx, false, true);
    case Method::BestOfN: return run_best_of_n(ctx);
    case Method::Random: return run_random(ctx);
    case Method::OpenEvolve: return run_openevolve(ctx);
  }
}

}  // namespace aoc::optimize
