// Atomic accumulation of DMA writes to GM: after SetAtomicAdd<T>() (Max, Min) every
// UB -> GM copy combines with the bytes already in GM, element-wise in type T,
// until SetAtomicNone(). The mode lives in the core's state (CoreState::atomic_mode).
#pragma once
#include <cstdint>
#include <type_traits>

#include "aoc/core_state.h"
#include "aoc/half.h"
#include "aoc/tensor.h"

namespace aoc {

template <typename T> constexpr bool atomic_capable() {
  using U = std::remove_cv_t<T>;
  return std::is_same_v<U, float> || std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t> ||
         std::is_same_v<U, int32_t> || std::is_same_v<U, int16_t> || std::is_same_v<U, int8_t>;
}

template <typename T> void set_atomic(uint8_t mode) {
  static_assert(atomic_capable<T>(), "GM atomics support float, half, bfloat16_t, int32_t, int16_t and int8_t");
  core().atomic_mode = mode;
  core().atomic_dtype = static_cast<uint8_t>(dtype_of<T>());
}

}  // namespace aoc

namespace AscendC {

template <typename T> inline void SetAtomicAdd() { aoc::set_atomic<T>(1); }
template <typename T> inline void SetAtomicMax() { aoc::set_atomic<T>(2); }
template <typename T> inline void SetAtomicMin() { aoc::set_atomic<T>(3); }
// Only selects the element type; the operation stays as set.
template <typename T> inline void SetAtomicType() {
  static_assert(aoc::atomic_capable<T>(), "GM atomics support float, half, bfloat16_t, int32_t, int16_t and int8_t");
  aoc::core().atomic_dtype = static_cast<uint8_t>(aoc::dtype_of<T>());
}
inline void SetAtomicNone() { aoc::core().atomic_mode = 0; }
inline void DisableDmaAtomic() { aoc::core().atomic_mode = 0; }

}  // namespace AscendC
