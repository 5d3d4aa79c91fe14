// Best-of-N: independent samples from the original package, no feedback between them. A
// sample is a random set of applicable motifs applied in a random order (each drawn from the
// motifs still applicable after the previous ones; half the samples apply none) and a random
// configuration of the original's space (a quarter keep the kernel's defaults); a sample
// identical to one already drawn is drawn again. The best valid sample is the result.
// With a model (kernel_proposers.h: ModelSource), every sample is instead the model's answer in sample mode (the
// original's sources and profile, no feedback) with the original's configuration; an answer
// that cannot be applied is a failed sample and costs its evaluation.
#include "search/method_runs.h"

namespace aoc::search {

namespace {

void llm_samples(SearchContext& ctx) {
  ctx.llm->set_mode(ModelSource::Mode::Sample);
  Rng rng(aoc::base::mix_seed(ctx.seed, 0xb0f));
  const size_t max_draws = 2 * ctx.ev.budget().limit() + 4;
  for (size_t draw = 0; draw < max_draws && !ctx.ev.budget().exhausted() && ctx.llm->available(); ++draw) {
    const auto p = ctx.llm->propose({*ctx.baseline, {}, rng, seen_in(ctx.ev)});
    if (p) evaluate_proposal(ctx.ev, *p, ctx.baseline->index);
  }
}

}  // namespace

void run_best_of_n(SearchContext& ctx) {
  if (ctx.llm) return llm_samples(ctx);
  const Space sp = ctx.config.space_of(*ctx.baseline);
  Rng rng(aoc::base::mix_seed(ctx.seed, 0xb0f));
  const size_t max_draws = 8 * ctx.ev.budget().limit() + 16;
  for (size_t draw = 0; draw < max_draws && !ctx.ev.budget().exhausted(); ++draw) {
    KernelPtr k = ctx.baseline->variant.kernel;
    std::string motifs;
    if (rng.chance(0.5)) {
      const size_t want = 1 + rng.below(std::max<size_t>(1, ctx.motif.applicable_count(*k)));
      for (size_t i = 0; i < want; ++i) {
        const auto names = ctx.motif.motif_order(*ctx.baseline, *k, rng);
        if (names.empty()) break;
        KernelPtr next = ctx.motif.apply(k, names.front());
        if (!next) break;
        k = next;
        motifs += (motifs.empty() ? "" : "+") + names.front();
      }
    }
    Point p = sp.defaults();
    if (!rng.chance(0.25))
      for (size_t d = 0; d < sp.dims.size(); ++d) p[d] = static_cast<uint32_t>(rng.below(sp.dims[d].values.size()));
    const Variant v{k, sp.config(p)};
    if (ctx.ev.known(v.key())) continue;
    ctx.ev.evaluate(v, "sample: motifs [" + motifs + "], config " + sp.key(p), ctx.baseline->index);
  }
}

}  // namespace aoc::search
