// Process-wide settings of the tikicpulib launch macros.
#include <atomic>
#include <stdexcept>
#include <string>

#include "aoc/host/platform_config.h"
#include "tikicpulib.h"

namespace {
std::atomic<int> g_kernel_mode{static_cast<int>(AscendC::KernelMode::MIX_MODE)};
std::atomic<uint64_t> g_tiling_key{0};
aoc::runtime::LaunchResult g_last_result;
}  // namespace

namespace AscendC {
void SetKernelMode(KernelMode mode) { g_kernel_mode = static_cast<int>(mode); }
}  // namespace AscendC

namespace aoc::runtime {

void icpu_set_tiling_key(uint64_t key) { g_tiling_key = key; }

LaunchConfig icpu_config(uint32_t block_dim) {
  LaunchConfig cfg;
  cfg.block_dim = block_dim;
  switch (static_cast<AscendC::KernelMode>(g_kernel_mode.load())) {
    case AscendC::KernelMode::AIV_MODE: cfg.mode = CoreMode::AIV; break;
    case AscendC::KernelMode::AIC_MODE: cfg.mode = CoreMode::AIC; break;
    default: cfg.mode = CoreMode::MIX; break;
  }
  cfg.tiling_key = g_tiling_key;
  cfg.limits = host::current_platform().core_limits();
  return cfg;
}

const LaunchResult& icpu_last_result() { return g_last_result; }
void icpu_store_result(LaunchResult r) { g_last_result = std::move(r); }

void icpu_check_arg(const char* kernel, size_t index, const void* p) {
  if (p == nullptr) return;
  if (GmRegistry::instance().find(p).hi == 0)
    throw std::invalid_argument(std::string("ICPU_RUN_KF(") + kernel + "): argument " + std::to_string(index) +
                                " is not inside a GmAlloc buffer");
}

}  // namespace aoc::runtime
