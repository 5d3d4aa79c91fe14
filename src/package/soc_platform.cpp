#include "package/soc_platform.h"

namespace aoc::package {

aoc::host::PlatformConfig platform_for(const aoc::sim::Soc& soc) {
  aoc::host::PlatformConfig cfg = aoc::host::current_platform();
  cfg.soc_version = soc.name;
  if (soc.aiv_cores > 0) cfg.aiv_cores = static_cast<uint32_t>(soc.aiv_cores);
  if (soc.aic_cores > 0) cfg.aic_cores = static_cast<uint32_t>(soc.aic_cores);
  cfg.ub_bytes = soc.limits.ub_bytes;
  cfg.l1_bytes = soc.limits.l1_bytes;
  cfg.l0a_bytes = soc.limits.l0a_bytes;
  cfg.l0b_bytes = soc.limits.l0b_bytes;
  cfg.l0c_bytes = soc.limits.l0c_bytes;
  if (soc.clock_ghz > 0) cfg.clock_ghz = soc.clock_ghz;
  return cfg;
}

}  // namespace aoc::package
