// Selecting the SoC a run models: its numbers become the process platform (what
// PlatformAscendC reports to tiling code) and the core limits the launcher gives each core.
#pragma once
#include <string>

#include "aoc/host/platform_config.h"
#include "sim/soc.h"

namespace aoc::rt {

// The host-visible numbers of a SoC model.
host::PlatformConfig platform_from_soc(const sim::Soc& soc);

// Loads socs/<name>.toml (or a path) and makes it the process platform; returns the SoC.
sim::Soc select_soc(const std::string& name_or_path);

}  // namespace aoc::rt
