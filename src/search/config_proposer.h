// Host-side proposals: a new tiling configuration for the parent's kernel. The space is read
// from the parent's own evaluation (the knobs its tiling declared, the platform numbers it
// reads), so after a kernel rewrite it is the new kernel's space. Moves, in the order tried:
// a profile-guided move (profile_moves.h) with probability `profile_rate`, else taking
// coordinates from an inspiration (crossover) with `crossover_rate`, else a one-coordinate
// step (a neighbour value mostly, sometimes any value); `Mode::Random` draws any point.
#pragma once
#include <string>

#include "aoc/host/platform_config.h"
#include "search/proposer.h"
#include "search/space.h"

namespace aoc::search {

class ConfigProposer : public Proposer {
 public:
  enum class Mode { Guided, Random };
  ConfigProposer(aoc::host::PlatformConfig platform, Mode mode = Mode::Guided)
      : platform_(std::move(platform)), mode_(mode) {}
  std::string name() const override { return "config"; }
  std::optional<Proposal> propose(const ProposalContext& ctx) override;
  void set_mode(Mode m) { mode_ = m; }

  // The parent's search space (throws std::invalid_argument for unusable knob declarations).
  Space space_of(const Scored& s) const;

  double profile_rate = 0.4;
  double crossover_rate = 0.3;

 private:
  aoc::host::PlatformConfig platform_;
  Mode mode_;
};

}  // namespace aoc::search
