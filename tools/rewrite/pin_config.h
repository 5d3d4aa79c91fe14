// Writing a tiling configuration into an operator's own sources, so that the operator behaves
// as the tuner ran it without the tuner: each tuning::Knob / KnobRange the configuration sets
// gets the chosen value as its default, and the platform reads the configuration overrides
// (core count, UB budget) are capped at its values where the tiling makes them. The result
// builds and runs the same on the simulator, with plain `ascendopt eval` and on a device.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "kernel_model.h"
#include "motif.h"

namespace aoc::rewrite {

// The configuration as the evaluator's TuningConfig holds it (0: the platform's own number).
struct PinnedConfig {
  std::map<std::string, int64_t> knobs;
  uint32_t cores = 0;
  uint64_t ub_bytes = 0;
  // Coupled parts (no separate vector cores) report the overridden count from GetCoreNumAic too.
  bool coupled = false;
};

// Parses {"knobs": {...}, "cores": N, "ub_bytes": N, "coupled": bool}; throws
// std::invalid_argument saying what is wrong.
PinnedConfig parse_pinned_config(const std::string& json_text);

// The edits, or the reason the configuration cannot be written into these sources (a knob
// no editable call declares, a platform read inside a macro, a UB read after the tiling
// reserved part of UB, ...).
Transform pin_config(const KernelModel& m, const PinnedConfig& cfg);

}  // namespace aoc::rewrite
