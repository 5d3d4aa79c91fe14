// The search methods `ascendopt optimize --method` offers. All of them start from the
// evaluated baseline, make candidates with the same proposers (config_proposer.h,
// motif_proposer.h) and spend the same Evaluator's budget:
//   optimize      episodes alternating host search on the current best kernel and kernel
//                 rewriting of it, the next episode chosen by a bandit (episodic.cpp);
//   tune-only     the host episodes alone; rewrite-only  the kernel episodes alone;
//   best-of-n     independent samples from the original, no feedback (best_of_n.cpp);
//   openevolve    islands, MAP-Elites and archive after OpenEvolve (openevolve.cpp);
//   random        random proposers on random evaluated parents (random_search.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "optimize/config_proposer.h"
#include "optimize/evaluator.h"
#include "optimize/motif_proposer.h"

namespace aoc::optimize {
class LlmKernelProposer;
}

namespace aoc::optimize {

enum class Method { Optimize, BestOfN, OpenEvolve, Random, TuneOnly, RewriteOnly };
std::optional<Method> parse_method(const std::string& s);
const char* to_string(Method m);
const std::vector<Method>& all_methods();

struct SearchContext {
  Evaluator& ev;
  ConfigProposer& config;
  MotifProposer& motif;
  ScoredPtr baseline;
  uint64_t seed = 1;
  std::function<void(const std::string&)> log;  // one line per episode or notable event
  // Episodes of the episodic methods: "host 1: 6 evaluations, 3.20 -> 2.56 us".
  std::vector<std::string> episodes;
  // The LLM proposer (llm_proposer.h) when the run has one: an arm of the episodic optimizer,
  // the sampler of Best-of-N, a mutation of OpenEvolve.
  LlmKernelProposer* llm = nullptr;
};

// Spends ctx.ev's budget (or stops earlier when the method has nothing left to propose).
void run_method(Method m, SearchContext& ctx);

void run_episodic(SearchContext& ctx, bool host, bool kernel);
void run_best_of_n(SearchContext& ctx);
void run_random(SearchContext& ctx);
void run_openevolve(SearchContext& ctx);

// A predicate for ProposalContext::seen over the run's evaluated variants.
std::function<bool(const std::string&)> seen_in(const Evaluator& ev);

// Evaluates the proposal's variant, or records its failure (Proposal::failure) at the same cost.
ScoredPtr evaluate_proposal(Evaluator& ev, const Proposal& p, std::optional<size_t> parent, bool cascade = false);

}  // namespace aoc::optimize
