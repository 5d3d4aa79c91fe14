// Search over a Space within a budget of evaluations, by two methods that count the same
// way: every distinct configuration evaluated (seed points included) costs one, and no
// configuration is ever evaluated twice. An evaluation the caller marks free (Evaluation::free:
// it knew the result without running anything) costs nothing, up to max_free of them.
//  - random: uniform points of the space;
//  - evolve: a population with elitism, tournament selection, uniform crossover, mutation
//    by neighbour steps or fresh values, and profile-guided moves read from the parent's
//    profile (profile_moves.h).
// Neither method reads the budget except to stop, so the first N evaluations of a run with
// a larger budget are exactly the run with budget N (the benchmark relies on it).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "search/evaluation.h"
#include "search/evaluator.h"
#include "search/space.h"

namespace aoc::search {

enum class HostMethod { Evolve, Random };
std::optional<HostMethod> parse_host_method(const std::string& s);
const char* to_string(HostMethod m);

struct SearchOptions {
  HostMethod method = HostMethod::Evolve;
  size_t budget = 32;
  uint64_t seed = 1;
  size_t population = 8;
  size_t tournament = 3;
  size_t elites = 2;
  double crossover_rate = 0.6;
  double profile_move_rate = 0.4;  // chance a child comes from a profile-guided move
  // Random points added to the seeds to fill the first population, at most. A short search
  // (a few evaluations) spends them all on random points unless this is below `population`.
  size_t max_random_fill = SIZE_MAX;
  // Free evaluations not counted against the budget, at most (each still takes the caller's
  // time: a bound on how long a search may go on without spending).
  size_t max_free = 0;
};

// What callers that answer some evaluations without running them (a configuration whose
// tiling equals an evaluated one's) allow per budgeted evaluation as SearchOptions::max_free.
constexpr size_t kMaxFreePerEvaluation = 4;

// Evaluates one point (never called twice for the same point).
using EvalFn = std::function<Evaluation(const Point&)>;
// Called after each evaluation (progress display).
using ProgressFn = std::function<void(const Evaluation&, size_t done, size_t budget)>;

struct SearchResult {
  // In evaluation order; an entry's `free` is set only when it was not counted against the
  // budget (a free answer beyond SearchOptions::max_free is counted and not marked free).
  std::vector<Evaluation> history;
  size_t invalid = 0;
  std::optional<size_t> best;       // index into history of the fastest valid evaluation
  // History entries up to the n-th counted one, with the free ones before it: what a budget of
  // n would have evaluated.
  size_t entries_within(size_t n) const;
  size_t free_count() const;     // entries not counted against the budget
  size_t charged_count() const;  // entries counted against it
  // Fastest valid evaluation among entries_within(n) (the result a budget of n would have given).
  std::optional<size_t> best_within(size_t n) const;
};

// Evaluates a point of `space` as the configuration of `kernel` through `ev`, under `origin`
// and `parent`: what the Evaluator answers without a charge (a variant met before, an
// evaluated tiling) is marked free; when its budget is spent, the point is invalid.
EvalFn through_evaluator(Evaluator& ev, const Space& space, KernelPtr kernel, std::string origin,
                         std::optional<size_t> parent = std::nullopt);

// `seeds` are evaluated first (invalid or duplicate seeds are skipped, repaired ones kept).
SearchResult run_search(const Space& space, const EvalFn& eval, const SearchOptions& opt,
                        const std::vector<Point>& seeds, const ProgressFn& progress = {});

}  // namespace aoc::search
