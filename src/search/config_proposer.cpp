#include "search/config_proposer.h"

#include "search/profile_moves.h"

namespace aoc::search {

Space ConfigProposer::space_of(const Scored& s) const {
  return make_space(s.eval.knobs, platform_, s.eval.platform_reads);
}

namespace {

constexpr int kTries = 24;

// One coordinate changed: a neighbour value with probability 0.7, else any other value.
Point step(const Space& sp, Point p, Rng& rng) {
  std::vector<size_t> movable;
  for (size_t d = 0; d < sp.dims.size(); ++d)
    if (sp.dims[d].values.size() > 1) movable.push_back(d);
  if (movable.empty()) return p;
  const size_t d = movable[rng.below(movable.size())];
  const uint32_t m = static_cast<uint32_t>(sp.dims[d].values.size());
  if (rng.chance(0.7)) {
    const bool up = p[d] == 0 || (p[d] + 1 < m && rng.chance(0.5));
    p[d] = up ? p[d] + 1 : p[d] - 1;
  } else {
    const uint32_t v = static_cast<uint32_t>(rng.below(m - 1));
    p[d] = v >= p[d] ? v + 1 : v;
  }
  return p;
}

}  // namespace

std::optional<Proposal> ConfigProposer::propose(const ProposalContext& ctx) {
  const Space sp = space_of(ctx.parent);
  if (sp.size() <= 1) return std::nullopt;  // nothing to tune on this kernel
  const Point from = sp.repair(ctx.parent.variant.config);
  const auto fresh = [&](const Point& p) {
    return !ctx.seen(Variant{ctx.parent.variant.kernel, sp.config(p)}.key());
  };
  const auto make = [&](const Point& p, const std::string& why) {
    return Proposal::made(Variant{ctx.parent.variant.kernel, sp.config(p)}, "config: " + why + " -> " + sp.key(p));
  };
  for (int t = 0; t < kTries; ++t) {
    if (mode_ == Mode::Random) {
      Point p;
      for (const auto& d : sp.dims) p.push_back(static_cast<uint32_t>(ctx.rng.below(d.values.size())));
      if (fresh(p)) return make(p, "random point");
      continue;
    }
    if (ctx.rng.chance(profile_rate)) {
      Evaluation e = ctx.parent.eval;
      e.point = from;
      std::vector<Move> moves = profile_moves(sp, e);
      std::erase_if(moves, [&](const Move& m) { return !fresh(m.point); });
      if (!moves.empty()) {
        const auto& m = moves[ctx.rng.below(moves.size())];
        return make(m.point, m.why);
      }
    }
    if (!ctx.inspirations.empty() && ctx.rng.chance(crossover_rate)) {
      const Scored& other = *ctx.inspirations[ctx.rng.below(ctx.inspirations.size())];
      const Point q = sp.repair(other.variant.config);
      Point c = from;
      for (size_t d = 0; d < c.size(); ++d)
        if (ctx.rng.chance(0.5)) c[d] = q[d];
      if (c != from && fresh(c)) return make(c, "crossover with #" + std::to_string(other.index));
    }
    const Point p = step(sp, from, ctx.rng);
    if (fresh(p)) return make(p, "step");
  }
  return std::nullopt;
}

}  // namespace aoc::search
