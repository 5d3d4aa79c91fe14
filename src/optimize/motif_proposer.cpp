#include "optimize/motif_proposer.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "bank/features.h"
#include "bank/ranking.h"
#include "bank/store.h"
#include "bank/target.h"
#include "rewrite/rewrite_candidate.h"
#include "rewrite/rewrite_tool.h"

namespace aoc::optimize {
namespace fs = std::filesystem;

std::vector<std::string> RandomMotifChooser::order(const search::Scored&, const std::vector<aoc::rewrite::MotifState>& applicable,
                                                   aoc::search::Rng& rng) {
  std::vector<std::string> names;
  for (const auto& m : applicable) names.push_back(m.motif);
  for (size_t i = names.size(); i > 1; --i) std::swap(names[i - 1], names[rng.below(i)]);
  return names;
}

BankMotifChooser::BankMotifChooser(const fs::path& bank_file) : bank_(std::make_unique<aoc::bank::Bank>(bank_file)) {}
BankMotifChooser::~BankMotifChooser() = default;

namespace {

// The bank's view of the parent: its motif states, and from its evaluation what the profile
// would give (busiest pipe, cores, vector/MTE2).
aoc::bank::Target target_of(const search::Scored& parent, const std::vector<aoc::rewrite::MotifState>& states) {
  aoc::bank::Target t = aoc::bank::make_target(parent.variant.kernel->cand, states, nullptr);
  std::map<std::string, double> pipes;
  double vec = 0, mte2 = 0;
  for (const auto& c : parent.eval.cases) {
    t.context.cores = std::max(t.context.cores, c.block_dim);
    for (const auto& [k, v] : c.profile)
      if (k.size() > 5 && k.compare(k.size() - 5, 5, "_time") == 0 && k != "aiv_time" && k != "aic_time") pipes[k] += v;
    if (auto it = c.profile.find("aiv_vec_time"); it != c.profile.end()) vec += it->second;
    if (auto it = c.profile.find("aiv_mte2_time"); it != c.profile.end()) mte2 += it->second;
  }
  t.context.bound = aoc::bank::busiest_pipe(pipes);
  if (mte2 > 0) t.context.vec_mte2_ratio = vec / mte2;
  t.profiled = !t.context.bound.empty();
  return t;
}

}  // namespace

std::vector<aoc::bank::Ranked> BankMotifChooser::rank(const search::Scored& parent,
                                                      const std::vector<aoc::rewrite::MotifState>& states) {
  if (!parent.variant.kernel) return {};
  return aoc::bank::rank_entries(bank_->entries(), target_of(parent, states),
                                 [&](const std::string& m) { return bank_->stats(m); });
}

std::vector<std::string> BankMotifChooser::order(const search::Scored& parent,
                                                 const std::vector<aoc::rewrite::MotifState>& applicable,
                                                 aoc::search::Rng& rng) {
  std::vector<std::string> rest = RandomMotifChooser().order(parent, applicable, rng);
  if (!parent.variant.kernel) return rest;
  std::vector<std::string> out;
  try {
    const auto ranked = rank(parent, applicable);
    for (const auto& [motif, entry] : aoc::bank::applicable_motifs(ranked, target_of(parent, applicable)))
      out.push_back(motif);
  } catch (const std::exception&) {
    return rest;  // an unreadable bank leaves the random order
  }
  for (const auto& m : rest)
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  return out;
}

MotifProposer::MotifProposer(fs::path kernels_dir, std::string header_hash, std::unique_ptr<MotifChooser> chooser)
    : dir_(std::move(kernels_dir)), header_hash_(std::move(header_hash)), chooser_(std::move(chooser)) {}

std::vector<aoc::rewrite::MotifState> MotifProposer::applicable(const search::Kernel& k) {
  auto it = detected_.find(k.cand.hash);
  if (it == detected_.end()) {
    std::vector<aoc::rewrite::MotifState> states;
    try {
      for (auto& s : aoc::rewrite::detect_motifs(k.cand))
        if (s.state == aoc::rewrite::State::Applicable) states.push_back(std::move(s));
    } catch (const std::exception& e) {
      notes_.push_back("motifs of " + k.cand.dir.string() + " not detected: " + e.what());
    }
    it = detected_.emplace(k.cand.hash, std::move(states)).first;
  }
  return it->second;
}

bool MotifProposer::has_untried(const search::Kernel& k) {
  for (const auto& m : applicable(k))
    if (!tried_.count({k.cand.hash, m.motif})) return true;
  return false;
}

search::KernelPtr MotifProposer::apply(const search::KernelPtr& k, const std::string& motif) {
  tried_.insert({k->cand.hash, motif});
  const fs::path out = dir_ / (k->cand.hash.substr(0, 12) + "-" + motif);
  auto made = std::make_shared<search::Kernel>();
  made->motifs = k->motifs;
  made->motifs.push_back(motif);
  try {
    if (fs::exists(out / "candidate.toml")) {
      // Written by an earlier (interrupted) run of the same search: the same rewrite.
      made->cand = aoc::eval::load_candidate(out, header_hash_);
      std::ifstream in(out / "rewrite.diff");
      made->diff.assign(std::istreambuf_iterator<char>(in), {});
      return made;
    }
    const aoc::rewrite::RewriteOutcome r = aoc::rewrite::rewrite_candidate(k->cand, "apply", motif, out);
    if (!r.done) {
      notes_.push_back("motif " + motif + " refused on " + k->cand.dir.string() + ": " + r.refused);
      return nullptr;
    }
    std::ofstream(out / "rewrite.diff") << r.diff;
    made->diff = r.diff;
    made->cand = aoc::eval::load_candidate(out, header_hash_);
  } catch (const std::exception& e) {
    notes_.push_back("motif " + motif + " on " + k->cand.dir.string() + ": " + e.what());
    return nullptr;
  }
  return made;
}

std::optional<search::Proposal> MotifProposer::propose(const search::ProposalContext& ctx) {
  const search::KernelPtr& k = ctx.parent.variant.kernel;
  for (const std::string& motif : chooser_->order(ctx.parent, applicable(*k), ctx.rng)) {
    if (tried_.count({k->cand.hash, motif})) continue;
    search::KernelPtr made = apply(k, motif);
    if (!made) continue;
    search::Variant v{made, ctx.parent.variant.config};
    if (ctx.seen(v.key())) continue;
    return search::Proposal::made(std::move(v), "motif " + motif + " (chosen by " + chooser_->name() + ")");
  }
  return std::nullopt;
}

}  // namespace aoc::optimize
