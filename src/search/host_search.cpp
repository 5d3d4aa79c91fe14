#include "search/host_search.h"

#include <algorithm>
#include <unordered_set>

#include "search/budget.h"
#include "search/profile_moves.h"
#include "search/rng.h"

namespace aoc::search {

std::optional<HostMethod> parse_host_method(const std::string& s) {
  if (s == "evolve") return HostMethod::Evolve;
  if (s == "random") return HostMethod::Random;
  return std::nullopt;
}

const char* to_string(HostMethod m) { return m == HostMethod::Evolve ? "evolve" : "random"; }

EvalFn through_evaluator(Evaluator& ev, const Space& space, KernelPtr kernel, std::string origin,
                         std::optional<size_t> parent) {
  return [&ev, &space, kernel = std::move(kernel), origin = std::move(origin), parent](const Point& p) {
    const Evaluator::Answer a = ev.request(Variant{kernel, space.config(p)}, origin, parent);
    if (!a.scored) {
      Evaluation e;
      e.reason = "budget spent";
      return e;
    }
    Evaluation e = a.scored->eval;
    e.free = a.free;
    return e;
  };
}

size_t SearchResult::entries_within(size_t n) const {
  if (n == 0) return 0;
  size_t counted = 0;
  for (size_t i = 0; i < history.size(); ++i)
    if (!history[i].free && ++counted == n) return i + 1;
  return history.size();
}

size_t SearchResult::free_count() const {
  return static_cast<size_t>(std::count_if(history.begin(), history.end(), [](const Evaluation& e) { return e.free; }));
}

size_t SearchResult::charged_count() const { return history.size() - free_count(); }

std::optional<size_t> SearchResult::best_within(size_t n) const {
  std::optional<size_t> b;
  const size_t entries = entries_within(n);
  for (size_t i = 0; i < entries; ++i)
    if (history[i].valid && (!b || history[i].time_us < history[*b].time_us)) b = i;
  return b;
}

namespace {

// Tries this many fresh points before deciding the space is used up.
constexpr int kTries = 64;

class Searcher {
 public:
  Searcher(const Space& s, const EvalFn& eval, const SearchOptions& o, const ProgressFn& progress)
      : s_(s), eval_(eval), o_(o), progress_(progress), rng_(o.seed), budget_(o.budget) {}

  bool exhausted() const { return budget_.exhausted(); }
  bool seen(const Point& p) const { return seen_.count(s_.key(p)) > 0; }

  // Evaluates `p` unless it was seen; returns its history index.
  std::optional<size_t> evaluate(const Point& p) {
    if (exhausted() || !s_.check(p).empty() || seen(p)) return std::nullopt;
    seen_.insert(s_.key(p));
    Evaluation e = eval_(p);
    e.point = p;
    e.key = s_.key(p);
    if (!e.valid) ++r_.invalid;
    // Up to max_free answers the caller knew without running anything cost nothing; any
    // other answer (a free one past that bound too) is one of the search's evaluations.
    if (e.free && free_ < o_.max_free) ++free_;
    else {
      e.free = false;
      budget_.charge(e.key);
    }
    r_.history.push_back(std::move(e));
    const size_t i = r_.history.size() - 1;
    if (r_.history[i].valid && (!r_.best || r_.history[i].time_us < r_.history[*r_.best].time_us)) r_.best = i;
    if (progress_) progress_(r_.history[i], budget_.spent(), o_.budget);
    return i;
  }

  Point random_point() {
    Point p;
    for (const auto& d : s_.dims) p.push_back(static_cast<uint32_t>(rng_.below(d.values.size())));
    return p;
  }

  // A random point not seen yet, or nothing when kTries draws all hit seen points.
  std::optional<Point> fresh_random() {
    for (int t = 0; t < kTries; ++t) {
      Point p = random_point();
      if (!seen(p)) return p;
    }
    return std::nullopt;
  }

  // Changes at least one coordinate: mostly a neighbour step (local refinement), sometimes
  // a fresh value (to leave a basin). Stays in the space by construction.
  void mutate(Point& p) {
    const size_t n = s_.dims.size();
    bool changed = false;
    while (!changed) {
      for (size_t d = 0; d < n; ++d) {
        const size_t m = s_.dims[d].values.size();
        if (m < 2 || !rng_.chance(1.0 / static_cast<double>(n))) continue;
        if (rng_.chance(0.7)) {
          const bool up = p[d] == 0 || (p[d] + 1 < m && rng_.chance(0.5));
          p[d] = up ? p[d] + 1 : p[d] - 1;
        } else {
          uint32_t v = static_cast<uint32_t>(rng_.below(m - 1));
          p[d] = v >= p[d] ? v + 1 : v;
        }
        changed = true;
      }
      if (s_.size() <= 1) return;
    }
  }

  Point crossover(const Point& a, const Point& b) {
    Point c = a;
    for (size_t d = 0; d < c.size(); ++d)
      if (rng_.chance(0.5)) c[d] = b[d];
    return c;
  }

  // Tournament among population members (indices into history): the fastest of k draws;
  // invalid members lose to any valid one.
  size_t tournament(const std::vector<size_t>& pop) {
    size_t best = pop[rng_.below(pop.size())];
    for (size_t t = 1; t < o_.tournament; ++t) {
      const size_t c = pop[rng_.below(pop.size())];
      if (better(c, best)) best = c;
    }
    return best;
  }

  bool better(size_t a, size_t b) const {
    const auto& x = r_.history[a];
    const auto& y = r_.history[b];
    if (x.valid != y.valid) return x.valid;
    if (!x.valid) return a < b;
    if (x.time_us != y.time_us) return x.time_us < y.time_us;
    return a < b;
  }

  // A child not seen yet: a profile-guided move of the parent, or crossover + mutation;
  // repeated mutation on duplicates, then a random point.
  std::optional<Point> child(const std::vector<size_t>& pop) {
    const size_t p1 = tournament(pop);
    if (rng_.chance(o_.profile_move_rate)) {
      std::vector<Move> moves = profile_moves(s_, r_.history[p1]);
      moves.erase(std::remove_if(moves.begin(), moves.end(), [&](const Move& m) { return seen(m.point); }), moves.end());
      if (!moves.empty()) return moves[rng_.below(moves.size())].point;
    }
    Point c = r_.history[p1].point;
    if (rng_.chance(o_.crossover_rate)) c = crossover(c, r_.history[tournament(pop)].point);
    for (int t = 0; t < kTries; ++t) {
      mutate(c);
      if (!seen(c)) return c;
    }
    return fresh_random();
  }

  SearchResult run(const std::vector<Point>& seeds) {
    for (const auto& p : seeds) evaluate(p);
    if (o_.method == HostMethod::Random) {
      while (!exhausted()) {
        auto p = fresh_random();
        if (!p) break;
        evaluate(*p);
      }
      return r_;
    }
    // Initial population: the seeds, then random points.
    std::vector<size_t> pop;
    for (size_t i = 0; i < r_.history.size(); ++i) pop.push_back(i);
    for (size_t filled = 0; pop.size() < o_.population && filled < o_.max_random_fill && !exhausted(); ++filled) {
      auto p = fresh_random();
      if (!p) break;
      if (auto i = evaluate(*p)) pop.push_back(*i);
    }
    while (!exhausted() && !pop.empty()) {
      std::sort(pop.begin(), pop.end(), [&](size_t a, size_t b) { return better(a, b); });
      // Elitism: the best members survive unchanged; the rest of the next generation are
      // children of tournament winners.
      std::vector<size_t> next(pop.begin(), pop.begin() + static_cast<long>(std::min(o_.elites, pop.size())));
      bool progress = false;
      while (next.size() < o_.population && !exhausted()) {
        auto c = child(pop);
        if (!c) break;
        if (auto i = evaluate(*c)) {
          next.push_back(*i);
          progress = true;
        }
      }
      if (!progress) break;  // the space is used up
      pop = std::move(next);
    }
    return r_;
  }

 private:
  const Space& s_;
  const EvalFn& eval_;
  const SearchOptions& o_;
  const ProgressFn& progress_;
  Rng rng_;
  SearchResult r_;
  Budget budget_;    // the history entries counted against the search's evaluations
  size_t free_ = 0;  // the free ones
  std::unordered_set<std::string> seen_;
};

}  // namespace

SearchResult run_search(const Space& space, const EvalFn& eval, const SearchOptions& opt, const std::vector<Point>& seeds,
                        const ProgressFn& progress) {
  Searcher s(space, eval, opt, progress);
  return s.run(seeds);
}

}  // namespace aoc::search
