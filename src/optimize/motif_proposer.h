// Kernel-side proposals: one motif (docs/motifs.md) applied to the parent's kernel, which
// keeps the parent's tiling configuration. Which applicable motif comes first is the
// MotifChooser's call: RandomMotifChooser draws uniformly; a chooser backed by an experience
// bank ranks motifs by what helped kernels with the parent's bottleneck. Rewritten kernels are
// written under `kernels_dir` with a name from the parent's hash and the motif, and a folder
// already there (a resumed run) is loaded instead of rewritten.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "search/kernel_proposers.h"
#include "rewrite/motif_states.h"

namespace aoc::bank {
class Bank;
struct Ranked;
}

namespace aoc::optimize {

class MotifChooser {
 public:
  virtual ~MotifChooser() = default;
  virtual std::string name() const = 0;
  // The applicable motifs in the order to try them.
  virtual std::vector<std::string> order(const search::Scored& parent, const std::vector<aoc::rewrite::MotifState>& applicable,
                                         aoc::search::Rng& rng) = 0;
};

class RandomMotifChooser : public MotifChooser {
 public:
  std::string name() const override { return "random"; }
  std::vector<std::string> order(const search::Scored& parent, const std::vector<aoc::rewrite::MotifState>& applicable,
                                 aoc::search::Rng& rng) override;
};

// Orders the applicable motifs by the experience bank's ranking for the parent kernel
// (bank/ranking.h: applicability, similarity of the parent's profile to the entries' sources,
// measured effect, adoption); motifs the bank knows nothing of follow in random order.
class BankMotifChooser : public MotifChooser {
 public:
  // Opens the bank; throws aoc::bank::BankError.
  explicit BankMotifChooser(const std::filesystem::path& bank_file);
  ~BankMotifChooser() override;
  std::string name() const override { return "bank"; }
  std::vector<std::string> order(const search::Scored& parent, const std::vector<aoc::rewrite::MotifState>& applicable,
                                 aoc::search::Rng& rng) override;
  // The bank's entries ranked for the parent kernel, best first (also what the LLM proposer's
  // guided prompts show under --bank). Throws aoc::bank::BankError when the bank cannot be read.
  std::vector<aoc::bank::Ranked> rank(const search::Scored& parent, const std::vector<aoc::rewrite::MotifState>& states);

 private:
  std::unique_ptr<aoc::bank::Bank> bank_;
};

class MotifProposer : public search::MotifSource {
 public:
  MotifProposer(std::filesystem::path kernels_dir, std::string header_hash, std::unique_ptr<MotifChooser> chooser);
  std::string name() const override { return "motif"; }
  std::optional<search::Proposal> propose(const search::ProposalContext& ctx) override;

  // The motifs applicable to `k` (detected once per kernel content). Empty when the
  // rewriter cannot read it (the reason is added to notes()).
  std::vector<aoc::rewrite::MotifState> applicable(const search::Kernel& k);
  size_t applicable_count(const search::Kernel& k) override { return applicable(k).size(); }
  // The chooser's order of the motifs applicable to `k`.
  std::vector<std::string> motif_order(const search::Scored& parent, const search::Kernel& k,
                                       search::Rng& rng) override {
    return chooser_->order(parent, applicable(k), rng);
  }
  // `k` with `motif` applied, or nullptr when refused or failing (reason in notes()).
  search::KernelPtr apply(const search::KernelPtr& k, const std::string& motif) override;
  bool has_untried(const search::Kernel& k) override;

  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::filesystem::path dir_;
  std::string header_hash_;
  std::unique_ptr<MotifChooser> chooser_;
  std::map<std::string, std::vector<aoc::rewrite::MotifState>> detected_;  // by kernel hash
  std::set<std::pair<std::string, std::string>> tried_;                    // (kernel hash, motif)
  std::vector<std::string> notes_;
};

}  // namespace aoc::optimize
