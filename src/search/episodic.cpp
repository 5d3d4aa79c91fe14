// The episodic optimizer. Each episode works on the current best variant:
//  - host: the tuner's evolutionary search (host_search.h) over the best kernel's own space
//    (read from its evaluation, so a rewrite that changed the knobs changes the space),
//    for max(3, budget/4) evaluations, seeded with every configuration the run evaluated
//    for that kernel (the best first), at most half of the episode on random points;
//  - kernel: up to 2 applicable motifs applied to the best kernel, with its configuration
//    (once every applicable motif of the best was tried: to the fastest variant with an
//    untried one, see kernel_parent);
//  - llm (when the run has a model, kernel_proposers.h): up to 2 guided LLM proposals on the best
//    kernel, with its configuration (an answer that cannot be applied costs one evaluation).
// Budget split: a bandit on gain per evaluation. An arm not yet played goes first (host
// before kernel); then the arm whose last two episodes gained most per evaluation spent
// (log of the best time's ratio, divided by the evaluations), ties going to the arm not
// played last (first plays go host, kernel, llm). The host and llm arms, when they have nothing
// left to propose for the current best (no unseen configuration, an LLM endpoint that keeps
// failing), wait until the best changes; the kernel arm waits only when no valid variant has
// an untried motif (each of its episodes uses up at least one (kernel, motif) pair).
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "search/host_search.h"
#include "search/method_runs.h"

namespace aoc::search {

namespace {

// An arm of the bandit: its name, whether the run has it, whether it has something to propose
// for the current best, and one episode of it.
struct Arm {
  std::string name;
  bool enabled = false;
  // After an episode that spent nothing, waits until the best changes (the kernel arm does not:
  // each of its episodes uses up at least one (kernel, motif) pair).
  bool waits_when_idle = true;
  std::function<bool(const ScoredPtr& best)> has_work;
  // Why it has no work for `best` (has_work false): what the stop message tells the user.
  std::function<std::string(const ScoredPtr& best)> idle_reason;
  std::function<void(const ScoredPtr& best, size_t episode)> play;
  std::vector<double> gains;  // per episode: log-gain per evaluation
  std::string stuck_on;       // best variant key on which it had nothing to propose
  double score() const {
    if (gains.empty()) return INFINITY;
    const size_t n = std::min<size_t>(2, gains.size());
    double s = 0;
    for (size_t i = gains.size() - n; i < gains.size(); ++i) s += gains[i];
    return s / static_cast<double>(n);
  }
};

// The configurations the run evaluated for this kernel, the best first, then by time (invalid
// ones last): a host episode continues the search these began instead of starting over.
std::vector<Point> evaluated_points(SearchContext& ctx, const ScoredPtr& best, const Space& sp) {
  std::vector<ScoredPtr> same;
  for (const auto& s : ctx.ev.history())
    if (s != best && s->variant.kernel && s->variant.kernel->cand.hash == best->variant.kernel->cand.hash)
      same.push_back(s);
  std::stable_sort(same.begin(), same.end(), [](const ScoredPtr& a, const ScoredPtr& b) {
    if (a->eval.valid != b->eval.valid) return a->eval.valid;
    return a->eval.valid && a->eval.time_us < b->eval.time_us;
  });
  std::vector<Point> points{sp.repair(best->variant.config)};
  std::set<std::string> keys{sp.key(points.front())};
  for (const auto& s : same) {
    Point p = sp.repair(s->variant.config);
    if (keys.insert(sp.key(p)).second) points.push_back(std::move(p));
  }
  return points;
}

void host_episode(SearchContext& ctx, const ScoredPtr& best, size_t episode, size_t length) {
  const Space sp = ctx.config.space_of(*best);
  const std::vector<Point> seeds = evaluated_points(ctx, best, sp);
  SearchOptions so;
  so.method = HostMethod::Evolve;
  // The seeds were evaluated before, and a configuration with an evaluated one's tiling is that
  // one: both come back without a charge and do not count against the episode's length.
  so.budget = length;
  so.max_free = seeds.size() + kMaxFreePerEvaluation * length;
  so.seed = aoc::base::mix_seed(ctx.seed, episode);
  // At most half the episode on random points, so that even a short episode makes children
  // (profile-guided moves, crossover and mutation of the fastest configurations so far).
  so.max_random_fill = std::max<size_t>(1, length / 2);
  const std::string origin = "host search (evolve), episode " + std::to_string(episode);
  run_search(sp, through_evaluator(ctx.ev, sp, best->variant.kernel, origin, best->index), so, seeds);
}

// The kernel the kernel arm rewrites: the best variant while it has an untried applicable
// motif, else the fastest valid variant that still has one. Motifs interact (one applied
// first can make another inapplicable, or worth more), so a runner-up's untried motif may
// beat the best; trying it spends budget a run would otherwise leave unused.
ScoredPtr kernel_parent(SearchContext& ctx, const ScoredPtr& best) {
  if (ctx.motif.has_untried(*best->variant.kernel)) return best;
  std::vector<ScoredPtr> valid;
  for (const auto& s : ctx.ev.history())
    if (s->eval.valid && s->variant.kernel) valid.push_back(s);
  std::stable_sort(valid.begin(), valid.end(),
                   [](const ScoredPtr& a, const ScoredPtr& b) { return a->eval.time_us < b->eval.time_us; });
  for (const auto& s : valid)
    if (ctx.motif.has_untried(*s->variant.kernel)) return s;
  return nullptr;
}

void kernel_episode(SearchContext& ctx, size_t tries) {
  for (size_t i = 0; i < tries && !ctx.ev.budget().exhausted(); ++i) {
    const ScoredPtr parent = kernel_parent(ctx, ctx.ev.best());
    if (!parent) return;
    Rng rng(aoc::base::mix_seed(ctx.seed, 0x4b000 + ctx.ev.budget().spent()));
    const auto p = ctx.motif.propose({*parent, {}, rng, seen_in(ctx.ev)});
    if (!p) return;
    ctx.ev.evaluate(p->variant, p->origin, parent->index);
  }
}

void llm_episode(SearchContext& ctx, const ScoredPtr& best, size_t tries) {
  ctx.llm->set_mode(ModelSource::Mode::Guided);
  for (size_t i = 0; i < tries && !ctx.ev.budget().exhausted(); ++i) {
    Rng rng(aoc::base::mix_seed(ctx.seed, 0x11a000 + ctx.ev.budget().spent()));
    const auto p = ctx.llm->propose({*best, {}, rng, seen_in(ctx.ev)});
    if (!p) return;
    evaluate_proposal(ctx.ev, *p, best->index);
  }
}

}  // namespace

void run_episodic(SearchContext& ctx, bool host, bool kernel) {
  const size_t host_length = std::max<size_t>(3, ctx.ev.budget().limit() / 4);
  // In this order: a tie goes to the arm found first unless that one was played last.
  std::vector<Arm> arms(3);
  arms[0].name = "host";
  arms[0].enabled = host;
  arms[0].has_work = [&](const ScoredPtr& best) { return ctx.config.space_of(*best).size() > 1; };
  arms[0].idle_reason = [](const ScoredPtr&) {
    return std::string("the best variant's tiling declares no knob and reads neither the core count nor the UB "
                       "size, so no configuration can be varied (docs/tune.md, declaring knobs)");
  };
  arms[0].play = [&](const ScoredPtr& best, size_t episode) {
    host_episode(ctx, best, episode, std::min(host_length, ctx.ev.budget().remaining()));
  };
  arms[1].name = "kernel";
  arms[1].enabled = kernel;
  arms[1].waits_when_idle = false;
  arms[1].has_work = [&](const ScoredPtr& best) { return kernel_parent(ctx, best) != nullptr; };
  arms[1].idle_reason = [](const ScoredPtr&) {
    return std::string("no valid variant has a motif left to try (docs/motifs.md: the motifs each kernel can take)");
  };
  arms[1].play = [&](const ScoredPtr&, size_t) { kernel_episode(ctx, 2); };
  arms[2].name = "llm";
  arms[2].enabled = kernel && ctx.llm;
  arms[2].has_work = [&](const ScoredPtr&) { return ctx.llm->available(); };
  arms[2].idle_reason = [](const ScoredPtr&) { return std::string("the model's endpoint stopped answering"); };
  arms[2].play = [&](const ScoredPtr& best, size_t) { llm_episode(ctx, best, 2); };
  const Arm* last = nullptr;
  for (size_t episode = 1; !ctx.ev.budget().exhausted(); ++episode) {
    const ScoredPtr best = ctx.ev.best();
    const std::string best_key = best->variant.key();
    Arm* pick = nullptr;
    for (Arm& a : arms) {
      if (!a.enabled || a.stuck_on == best_key || !a.has_work(best)) continue;
      if (!pick || a.score() > pick->score() || (a.score() == pick->score() && pick == last)) pick = &a;
    }
    if (!pick) {
      std::string why;
      for (const Arm& a : arms) {
        if (!a.enabled) continue;
        why += (why.empty() ? "" : "; ") + a.name + ": ";
        why += a.stuck_on == best_key ? "its last episode found nothing new to propose for the best variant"
                                      : a.idle_reason(best);
      }
      const std::string stop = "stopped with " + std::to_string(ctx.ev.budget().remaining()) +
                               " evaluation(s) of the budget left: nothing left to propose (" + why + ")";
      ctx.episodes.push_back(stop);
      if (ctx.log) ctx.log(stop);
      break;
    }
    const size_t spent0 = ctx.ev.budget().spent();
    const double t0 = best->eval.time_us;
    pick->play(best, episode);
    const size_t spent = ctx.ev.budget().spent() - spent0;
    const double t1 = ctx.ev.best()->eval.time_us;
    if (spent == 0 && pick->waits_when_idle) pick->stuck_on = best_key;
    pick->gains.push_back(spent ? std::log(t0 / t1) / static_cast<double>(spent) : 0.0);
    last = pick;
    std::ostringstream os;
    os.precision(4);
    os << pick->name << " episode " << episode << ": " << spent << " evaluation(s), best " << t0 << " -> " << t1
       << " us";
    ctx.episodes.push_back(os.str());
    if (ctx.log) ctx.log(os.str());
  }
}

}  // namespace aoc::search
