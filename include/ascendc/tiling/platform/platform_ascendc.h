// platform_ascendc::PlatformAscendC: hardware queries of host tiling code, answered from the
// PlatformConfig carried by the TilingContext (or the process platform for the manager).
#pragma once
#include <cstdint>
#include <string>

#include "aoc/host/platform_config.h"

// Which platform numbers a tiling function reads: the tuner varies the core count and the UB
// size only for an operator whose tiling reads them. Reached through one weak C symbol that
// only the AscendOptimizer runtime defines (elsewhere it resolves to null), like
// tiling/tuning_knobs.h. `what`: 1 = a core count, 2 = the UB size.
extern "C" {
#if defined(__GNUC__) && defined(__ELF__)
__attribute__((weak, visibility("default")))
#endif
void aoc_platform_read(int what);
}

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND910_93,
  ASCEND910_95,
  ASCEND310P,
  ASCEND310B,
  ASCEND610,
  ASCEND610LITE,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND950,
  RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K = 0, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
 public:
  PlatformAscendC() = default;
  explicit PlatformAscendC(fe::PlatFormInfos* info) {
    if (info != nullptr) cfg_ = info->config();
  }
  explicit PlatformAscendC(const aoc::host::PlatformConfig& cfg) : cfg_(cfg) {}

  // Separated architecture: the vector core count (what vector kernels launch on).
  uint32_t GetCoreNum() const { return noted(kReadCores, cfg_.separated ? cfg_.aiv_cores : cfg_.aic_cores); }
  uint32_t GetCoreNumAic() const { return noted(kReadCores, cfg_.aic_cores); }
  uint32_t GetCoreNumAiv() const { return noted(kReadCores, cfg_.separated ? cfg_.aiv_cores : cfg_.aic_cores); }
  // Standalone Vector Cores exist only on some inference parts; 0 elsewhere.
  uint32_t GetCoreNumVector() const { return cfg_.vector_cores; }

  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    switch (type) {
      case CoreMemType::L0_A: size = cfg_.l0a_bytes; break;
      case CoreMemType::L0_B: size = cfg_.l0b_bytes; break;
      case CoreMemType::L0_C: size = cfg_.l0c_bytes; break;
      case CoreMemType::L1: size = cfg_.l1_bytes; break;
      case CoreMemType::L2: size = cfg_.l2_bytes; break;
      case CoreMemType::UB: size = noted(kReadUb, cfg_.ub_bytes - reserved_ub_); break;
      case CoreMemType::HBM: size = cfg_.hbm_bytes; break;
      case CoreMemType::FB: size = cfg_.fb_bytes; break;
      case CoreMemType::BT: size = cfg_.bt_bytes; break;
      default: size = 0; break;
    }
  }
  // Bandwidth in bytes per cycle; only L2 and HBM are reported, as on the device.
  void GetCoreMemBw(CoreMemType type, uint64_t& bw) const {
    switch (type) {
      case CoreMemType::L2: bw = cfg_.l2_bytes_per_cycle; break;
      case CoreMemType::HBM: bw = cfg_.hbm_bytes_per_cycle; break;
      default: bw = 0; break;
    }
  }

  SocVersion GetSocVersion() const { return soc_version_of(cfg_.soc_version); }
  std::string GetSocVersionName() const { return cfg_.soc_version; }
  int32_t GetCurNpuArch() const { return cfg_.npu_arch; }
  uint32_t GetLibApiWorkSpaceSize() const { return cfg_.lib_api_workspace_bytes; }
  // Vector register length in bytes (256 B repeats on arch 2201).
  uint32_t GetVecRegLen() const { return 256; }

  // Number of blocks for a launch that splits work into `slice_num` pieces. For mixed
  // kernels one block is a group of 1 AIC + (aiv/aic) AIVs, so groups are counted.
  uint32_t CalcTschBlockDim(uint32_t slice_num, uint32_t aic_num, uint32_t aiv_num) const {
    if (slice_num == 0) return 0;
    if (aic_num == 0 && aiv_num == 0) return slice_num;
    if (aic_num == 0) return slice_num < aiv_num ? slice_num : aiv_num;
    if (aiv_num == 0) return slice_num < aic_num ? slice_num : aic_num;
    uint32_t ratio = aiv_num / aic_num ? aiv_num / aic_num : 1;
    uint32_t groups = (slice_num + ratio - 1) / ratio;
    return groups < aic_num ? groups : aic_num;
  }
  uint32_t CalcTschNumBlocks(uint32_t slice_num, uint32_t aic_num, uint32_t aiv_num) const {
    return CalcTschBlockDim(slice_num, aic_num, aiv_num);
  }

  // Keeps part of UB for the framework: later UB size queries report less.
  void ReserveLocalMemory(ReservedSize size) {
    static constexpr uint64_t kBytes[] = {8 * 1024, 16 * 1024, 32 * 1024};
    reserved_ub_ = kBytes[static_cast<int>(size)];
  }

  const aoc::host::PlatformConfig& config() const { return cfg_; }

  static SocVersion soc_version_of(const std::string& name) {
    auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
    // A3 parts report the A2 enum, as the device library does.
    if (starts("Ascend910_93")) return SocVersion::ASCEND910B;
    if (starts("Ascend910_95") || starts("Ascend950")) return SocVersion::ASCEND950;
    if (starts("Ascend910B") || starts("ascend910b")) return SocVersion::ASCEND910B;
    if (starts("Ascend910") || starts("ascend910")) return SocVersion::ASCEND910;
    if (starts("Ascend310P") || starts("ascend310p")) return SocVersion::ASCEND310P;
    if (starts("Ascend310B") || starts("ascend310b")) return SocVersion::ASCEND310B;
    if (starts("Ascend310")) return SocVersion::ASCEND310;
    return SocVersion::RESERVED_VERSION;
  }

 private:
  static constexpr int kReadCores = 1, kReadUb = 2;
  template <typename T>
  static T noted(int what, T value) {
#if defined(__GNUC__) && defined(__ELF__)
    if (aoc_platform_read != nullptr) aoc_platform_read(what);
#endif
    return value;
  }

  aoc::host::PlatformConfig cfg_ = aoc::host::current_platform();
  uint64_t reserved_ub_ = 0;
};

// Platform of the process, for kernel-launch style projects without a TilingContext.
class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC p;
    p = PlatformAscendC(aoc::host::current_platform());
    return &p;
  }
  static PlatformAscendC* GetInstance(const char* /*custom_soc_version*/) { return GetInstance(); }
};

}  // namespace platform_ascendc
