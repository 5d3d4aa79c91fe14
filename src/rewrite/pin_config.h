// A tiling configuration written into a candidate's own sources (aoc-rewrite pin-config,
// tools/rewrite/pin_config.h): the knob defaults become the chosen values and the platform
// reads the configuration overrides are capped, so plain evaluation, a device build and a
// copy into another tree all behave as the tuner ran the operator.
#pragma once
#include <string>

#include "build/op_build.h"
#include "eval/candidate.h"
#include "eval/harness_protocol.h"

namespace aoc::rewrite {

struct PinOutcome {
  bool pinned = false;
  // What was written (the knobs and caps), or why the configuration stays outside the
  // sources (the rewriter's refusal, sources it cannot parse, a missing rewriter).
  std::string message;
};

// Edits `sources` (a copy of `c`'s) in place. `coupled`: the SoC has no separate vector
// cores (its AI Core count is the one a core override changes).
PinOutcome pin_configuration(const aoc::eval::Candidate& c, const aoc::build::SourceDirs& sources,
                             const aoc::eval::TuningConfig& config, bool coupled);

}  // namespace aoc::rewrite
