// The kernel arm of `optimize` (rewrite-only runs it alone): once every applicable motif of the
// best kernel was tried, it goes back to the fastest variant that still has an untried one,
// so a motif that an earlier rewrite made inapplicable is still tried on a kernel it applies to.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "optimize/run.h"
#include "optimize/small_package.h"
#include "rewrite/motif_states.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::optimize;
using namespace aoc::search;
using namespace aoc::search;

const fs::path kFastGelu = fs::path(AOC_SOURCE_DIR) / "ops" / "activation" / "fast_gelu";

bool is_motif(const ScoredPtr& s) { return s->origin.rfind("motif ", 0) == 0; }
// "motif unroll (chosen by random)" -> "unroll"
std::string motif_of(const std::string& origin) { return origin.substr(6, origin.find(' ', 6) - 6); }

// fast_gelu's baseline has more than one applicable motif and they interact (unrolling the
// tile loop leaves no read-once loop for the L2 hint to mark), so a run that only ever extends
// the best kernel ends with motifs untried and budget left. The run here must make at least
// one motif child of a variant that was not the best when the child was made, and must stop
// only when the budget is spent or no valid kernel has an untried applicable motif (the run
// that only extends the best stops with motifs of the baseline untried).
TEST(KernelArm, BacktracksToTheFastestVariantWithAnUntriedMotif) {
  aoc::testing::ScratchDir tmp("optimize-kernel-arm");
  const fs::path pkg = aoc::testing::small_package_copy(kFastGelu, tmp.path() / "fast_gelu");
  aoc::build::Builder builder(aoc::build::default_builder_options());
  ::setenv("ASCENDOPT_HIDDEN_SEED", "7", 1);
  OptimizeOptions o;
  o.method = find_method("rewrite-only");
  o.budget = 16;
  o.seed = 1;
  o.cases = {"aligned_2d_fp16"};
  o.eval = aoc::eval::default_candidate_eval_options();
  o.out_dir = tmp.path() / "out";
  o.verify_candidates = 1;
  o.store_file = tmp.path() / "store.sqlite";
  const OptimizeReport r = optimize(pkg, builder, o);
  ASSERT_FALSE(r.history.empty());
  ASSERT_TRUE(r.verified) << r.verification;

  // (kernel hash, motif) pairs the run tried: a child evaluated, or a rewrite it refused.
  std::set<std::pair<std::string, std::string>> tried;
  size_t motif_children = 0, backtracks = 0;
  size_t best_so_far = 0;  // index of the fastest valid variant among those evaluated before
  for (size_t i = 0; i < r.history.size(); ++i) {
    const ScoredPtr& s = r.history[i];
    if (is_motif(s)) {
      ++motif_children;
      ASSERT_TRUE(s->parent.has_value()) << s->origin;
      const ScoredPtr& parent = r.history.at(*s->parent);
      EXPECT_TRUE(parent->eval.valid) << s->origin << " was made from an invalid variant";
      tried.insert({parent->variant.kernel->cand.hash, motif_of(s->origin)});
      if (*s->parent != best_so_far) ++backtracks;
    }
    if (s->eval.valid && s->eval.time_us < r.history[best_so_far]->eval.time_us) best_so_far = i;
  }
  EXPECT_GE(motif_children, 3u) << "fast_gelu's baseline has three applicable motifs";
  EXPECT_GE(backtracks, 1u) << "every motif child extended the best: the kernel arm never went back";

  // The run stopped with budget left, so no valid kernel may keep an applicable motif untried.
  ASSERT_LT(r.history.size(), o.budget) << "the budget bound: the stopping rule is not exercised";
  for (const auto& s : r.history) {
    if (!s->eval.valid || !s->variant.kernel) continue;
    const auto& cand = s->variant.kernel->cand;
    for (const auto& m : aoc::rewrite::detect_motifs(cand)) {
      if (m.state != aoc::rewrite::State::Applicable || tried.count({cand.hash, m.motif})) continue;
      bool refused = false;
      for (const auto& n : r.notes)
        refused |= n.find("motif " + m.motif + " ") != std::string::npos && n.find(cand.dir.string()) != std::string::npos;
      // Applying it would give a kernel the run already has (the same motifs in another
      // order): the proposer skips a variant seen before, at no cost.
      std::multiset<std::string> with(s->variant.kernel->motifs.begin(), s->variant.kernel->motifs.end());
      with.insert(m.motif);
      bool seen = false;
      for (const auto& o : r.history)
        seen |= o->variant.kernel &&
                std::multiset<std::string>(o->variant.kernel->motifs.begin(), o->variant.kernel->motifs.end()) == with;
      EXPECT_TRUE(refused || seen) << "motif " << m.motif << " was never tried on " << s->origin << " (index " << s->index
                           << "), a valid variant, though the run stopped with budget left";
    }
  }
}

}  // namespace
