#include "runtime/platform.h"

#include <stdexcept>

namespace aoc::runtime {

host::PlatformConfig platform_from_soc(const sim::Soc& soc) {
  host::PlatformConfig cfg;  // fields the SoC file does not describe keep the 910B defaults
  cfg.soc_version = soc.name;
  cfg.aiv_cores = static_cast<uint32_t>(soc.aiv_cores);
  cfg.aic_cores = static_cast<uint32_t>(soc.aic_cores);
  // Coupled parts (no separate vector cores) report AI Cores as AIC only.
  cfg.separated = soc.aiv_cores > 0 && soc.aic_cores > 0;
  cfg.ub_bytes = soc.limits.ub_bytes;
  cfg.l1_bytes = soc.limits.l1_bytes;
  cfg.l0a_bytes = soc.limits.l0a_bytes;
  cfg.l0b_bytes = soc.limits.l0b_bytes;
  cfg.l0c_bytes = soc.limits.l0c_bytes;
  cfg.bt_bytes = soc.limits.bt_bytes;
  cfg.fb_bytes = soc.limits.fb_bytes;
  if (soc.l2_bytes) cfg.l2_bytes = soc.l2_bytes;
  if (soc.hbm_bytes) cfg.hbm_bytes = soc.hbm_bytes;
  if (soc.clock_ghz > 0) cfg.clock_ghz = soc.clock_ghz;
  if (soc.hbm_read_bytes_per_cycle > 0) cfg.hbm_bytes_per_cycle = static_cast<uint64_t>(soc.hbm_read_bytes_per_cycle);
  if (soc.l2_write_bytes_per_cycle > 0) cfg.l2_bytes_per_cycle = static_cast<uint64_t>(soc.l2_write_bytes_per_cycle);
  return cfg;
}

host::PlatformConfig with_overrides(host::PlatformConfig base, uint32_t cores, uint64_t ub_bytes) {
  // PlatformAscendC::GetCoreNumAiv reports AI Cores on coupled parts.
  uint32_t& reported = base.separated ? base.aiv_cores : base.aic_cores;
  if (cores > reported)
    throw std::invalid_argument("core override " + std::to_string(cores) + " exceeds the " +
                                std::to_string(reported) + " vector cores of " + base.soc_version);
  if (ub_bytes > base.ub_bytes)
    throw std::invalid_argument("UB override " + std::to_string(ub_bytes) + " B exceeds the " +
                                std::to_string(base.ub_bytes) + " B UB of " + base.soc_version);
  if (ub_bytes % 32 != 0) throw std::invalid_argument("UB override " + std::to_string(ub_bytes) + " B is not 32 B aligned");
  if (cores > 0) reported = cores;
  if (ub_bytes > 0) base.ub_bytes = ub_bytes;
  return base;
}

sim::Soc select_soc(const std::string& name_or_path) {
  sim::Soc soc = sim::load_soc(name_or_path);
  host::set_current_platform(platform_from_soc(soc));
  return soc;
}

}  // namespace aoc::runtime
