// The hardware numbers host tiling code can ask for (PlatformAscendC), in one small struct.
// Defaults are the Ascend 910B1; the runtime replaces them from the selected SoC file
// (src/runtime/platform.h), and a tuner may hand a tiling function a modified copy (fewer
// cores, a smaller UB budget) through the TilingContext.
#pragma once
#include <cstdint>
#include <string>

#include "aoc/core_state.h"

namespace aoc::host {

struct PlatformConfig {
  std::string soc_version = "Ascend910B1";
  uint32_t aiv_cores = 48;
  uint32_t aic_cores = 24;
  uint32_t vector_cores = 0;  // standalone Vector Cores (inference parts only)
  bool separated = true;      // cube and vector cores are separate (arch 2201)
  uint64_t ub_bytes = 192 * 1024;
  uint64_t l1_bytes = 512 * 1024;
  uint64_t l0a_bytes = 64 * 1024;
  uint64_t l0b_bytes = 64 * 1024;
  uint64_t l0c_bytes = 128 * 1024;
  uint64_t bt_bytes = 1024;
  uint64_t fb_bytes = 2048;
  uint64_t l2_bytes = 192ull * 1024 * 1024;
  uint64_t hbm_bytes = 64ull * 1024 * 1024 * 1024;
  double clock_ghz = 1.85;
  // Chip-wide bandwidths in bytes per cycle (GetCoreMemBw): ~1.8 TB/s HBM, ~5.2 TB/s L2.
  uint64_t hbm_bytes_per_cycle = 973;
  uint64_t l2_bytes_per_cycle = 2810;
  // System workspace the high-level APIs (Matmul etc.) need: GetLibApiWorkSpaceSize.
  uint32_t lib_api_workspace_bytes = 16 * 1024 * 1024;
  int32_t npu_arch = 2201;

  CoreLimits core_limits() const {
    CoreLimits l;
    l.ub_bytes = static_cast<uint32_t>(ub_bytes);
    l.l1_bytes = static_cast<uint32_t>(l1_bytes);
    l.l0a_bytes = static_cast<uint32_t>(l0a_bytes);
    l.l0b_bytes = static_cast<uint32_t>(l0b_bytes);
    l.l0c_bytes = static_cast<uint32_t>(l0c_bytes);
    l.bt_bytes = static_cast<uint32_t>(bt_bytes);
    l.fb_bytes = static_cast<uint32_t>(fb_bytes);
    return l;
  }
};

// The platform of the process: what PlatformAscendCManager and new contexts report.
inline PlatformConfig& current_platform() {
  static PlatformConfig cfg;
  return cfg;
}
inline void set_current_platform(const PlatformConfig& cfg) { current_platform() = cfg; }

}  // namespace aoc::host

// The opaque platform handle TilingContext::GetPlatformInfo returns; PlatformAscendC reads it.
namespace fe {
class PlatFormInfos {
 public:
  PlatFormInfos() = default;
  explicit PlatFormInfos(aoc::host::PlatformConfig cfg) : cfg_(std::move(cfg)) {}
  const aoc::host::PlatformConfig& config() const { return cfg_; }
  aoc::host::PlatformConfig& config() { return cfg_; }

 private:
  aoc::host::PlatformConfig cfg_ = aoc::host::current_platform();
};
}  // namespace fe
