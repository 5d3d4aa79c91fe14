// Selecting the SoC a run models: its numbers become the process platform (what
// PlatformAscendC reports to tiling code) and the core limits the launcher gives each core.
#pragma once
#include <string>

#include "aoc/host/platform_config.h"
#include "sim/soc.h"

namespace aoc::runtime {

// The host-visible numbers of a SoC model.
host::PlatformConfig platform_from_soc(const sim::Soc& soc);

// `base` as a tuner hands it to a tiling function: `cores` vector cores and `ub_bytes` of
// UB instead of the SoC's (0 keeps the SoC's number). The overrides can only shrink what
// the hardware has; throws std::invalid_argument (with the limit) otherwise, or when the
// UB budget is not a whole number of 32 B blocks.
host::PlatformConfig with_overrides(host::PlatformConfig base, uint32_t cores, uint64_t ub_bytes);

// Loads socs/<name>.toml (or a path) and makes it the process platform; returns the SoC.
sim::Soc select_soc(const std::string& name_or_path);

}  // namespace aoc::runtime
