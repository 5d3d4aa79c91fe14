// The random ablation: each step takes a uniformly drawn valid variant of the run as the
// parent and a uniformly drawn proposer (a random configuration of its kernel, or a random
// applicable motif), with no profile, no bandit and no selection pressure beyond validity.
#include "search/method_runs.h"

namespace aoc::search {

void run_random(SearchContext& ctx) {
  Rng rng(aoc::base::mix_seed(ctx.seed, 0x7a4d));
  ConfigProposer random_config(ctx.config);
  random_config.set_mode(ConfigProposer::Mode::Random);
  const size_t max_draws = 8 * ctx.ev.budget().limit() + 16;
  for (size_t draw = 0; draw < max_draws && !ctx.ev.budget().exhausted(); ++draw) {
    std::vector<ScoredPtr> valid;
    for (const auto& s : ctx.ev.history())
      if (s->eval.valid) valid.push_back(s);
    const ScoredPtr parent = valid[rng.below(valid.size())];
    Proposer* first = rng.chance(0.5) ? static_cast<Proposer*>(&random_config) : &ctx.motif;
    Proposer* second = first == &ctx.motif ? static_cast<Proposer*>(&random_config) : &ctx.motif;
    const ProposalContext pc{*parent, {}, rng, seen_in(ctx.ev)};
    auto p = first->propose(pc);
    if (!p) p = second->propose(pc);
    if (p) ctx.ev.evaluate(p->variant, p->origin, parent->index);
  }
}

}  // namespace aoc::search
