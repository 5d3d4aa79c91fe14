// The search methods `ascendopt optimize --method` offers, written once in the registry
// (methods.cpp): name, one-line description and the function that runs it. Parsing a name, the
// --method help and error text and the benchmark's method names all read that registry. Every
// method starts from the evaluated baseline, makes candidates with the same proposers (the
// host configurations of config_proposer.h, the kernels of kernel_proposers.h) and spends the
// same Evaluator's budget.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "search/config_proposer.h"
#include "search/evaluator.h"
#include "search/kernel_proposers.h"

namespace aoc::search {

struct SearchContext {
  Evaluator& ev;
  ConfigProposer& config;
  MotifSource& motif;
  ScoredPtr baseline;
  uint64_t seed = 1;
  std::function<void(const std::string&)> log;  // one line per episode or notable event
  // Episodes of the episodic methods: "host 1: 6 evaluations, 3.20 -> 2.56 us".
  std::vector<std::string> episodes;
  // The model's kernels when the run has a model: an arm of the episodic optimizer, the
  // sampler of Best-of-N, a mutation of OpenEvolve.
  ModelSource* llm = nullptr;
};

struct Method {
  std::string name;         // what --method takes: "optimize", "best-of-n" ...
  std::string description;  // one line
  bool uses_model = true;   // asks a model for kernels when the run has one
  // Spends ctx.ev's budget (or stops earlier when the method has nothing left to propose).
  std::function<void(SearchContext&)> run;
};

// Every method, in the order the help lists them.
const std::vector<Method>& methods();
// The method named `name`, or nullptr.
const Method* find_method(const std::string& name);
// The method `ascendopt optimize` runs without --method.
const Method& default_method();
// "optimize, best-of-n, ... or rewrite-only": the names for help and error text.
std::string method_names();

// A predicate for ProposalContext::seen over the run's evaluated variants.
std::function<bool(const std::string&)> seen_in(const Evaluator& ev);

// Evaluates the proposal's variant, or records its failure (Proposal::failure) at the same cost.
Evaluator::Answer evaluate_proposal(Evaluator& ev, const Proposal& p, std::optional<size_t> parent, bool cascade = false);

}  // namespace aoc::search
