// What a tiling function is told about the platform when a case runs on a simulator SoC.
#pragma once
#include "aoc/host/platform_config.h"
#include "sim/soc.h"

namespace aoc::package {

// Platform numbers the TilingFunc sees for a simulator SoC: its core counts, local memory
// sizes and clock; the rest as the current platform has them.
aoc::host::PlatformConfig platform_for(const aoc::sim::Soc& soc);

}  // namespace aoc::package
