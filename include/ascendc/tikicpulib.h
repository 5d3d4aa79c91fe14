// The CPU-twin host API of AscendC: GmAlloc/GmFree, SetKernelMode, ICPU_SET_TILING_KEY and
// ICPU_RUN_KF(kernel, blockDim, args...), built on the launcher (src/runtime, link aoc_runtime).
// A failed run throws aoc::runtime::LaunchError naming the block, kernel line and API.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernel_operator.h"
#include "aoc/launch.h"

namespace AscendC {
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };
void* GmAlloc(size_t size);
void GmFree(void* ptr);
void SetKernelMode(KernelMode mode);
}  // namespace AscendC

namespace aoc::runtime {

void icpu_set_tiling_key(uint64_t key);
// Launch configuration from the current kernel mode, tiling key and platform.
LaunchConfig icpu_config(uint32_t block_dim);
// Throws std::invalid_argument when a non-null pointer argument is not GmAlloc memory.
void icpu_check_arg(const char* kernel, size_t index, const void* p);
// The last ICPU_RUN_KF run of this process (its per-core traces feed the simulator).
const LaunchResult& icpu_last_result();
void icpu_store_result(LaunchResult r);

template <typename... Params, typename... Args>
void icpu_run(const char* name, void (*kernel)(Params...), uint32_t block_dim, Args... args) {
  static_assert(sizeof...(Args) <= kMaxKernelArgs, "ICPU_RUN_KF: at most 32 kernel arguments");
  static_assert(sizeof...(Args) == sizeof...(Params), "ICPU_RUN_KF: argument count differs from the kernel's");
  size_t i = 0;
  auto check = [&](auto a) {
    if constexpr (std::is_pointer_v<decltype(a)>) icpu_check_arg(name, i, a);
    ++i;
  };
  (check(args), ...);
  LaunchResult r = launch(icpu_config(block_dim), [&] { kernel(static_cast<Params>(args)...); });
  icpu_store_result(r);
  if (!r.ok) throw LaunchError(std::move(r));
}

}  // namespace aoc::runtime

#define ICPU_SET_TILING_KEY(key) ::aoc::runtime::icpu_set_tiling_key(static_cast<uint64_t>(key))
#define ICPU_RUN_KF(func, blockDim, ...) ::aoc::runtime::icpu_run(#func, func, (blockDim), __VA_ARGS__)
