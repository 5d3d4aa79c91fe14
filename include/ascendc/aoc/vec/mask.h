// The vector mask register of a core: mode (normal / counter) and 128 mask bits.
// In normal mode bit i enables lane i of every repeat; in counter mode the low 64
// bits hold the total number of elements the next instruction processes.
#pragma once
#include <cstdint>

#include "aoc/core_state.h"
#include "aoc/macros.h"
#include "aoc/vec/params.h"

namespace aoc::vec {

// Lanes a repeat has for elements of `bytes` bytes (256-byte repeat).
constexpr uint32_t lanes_for(uint32_t bytes) { return 256u / bytes; }

// Normal-mode bits enabling the first `n` lanes (clamped to `lanes`).
struct MaskBits {
  uint64_t hi = 0;
  uint64_t lo = 0;
};
inline MaskBits prefix_bits(uint64_t n, uint32_t lanes) {
  if (n > lanes) n = lanes;
  MaskBits m;
  m.lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
  m.hi = n >= 128 ? ~0ull : (n > 64 ? ((1ull << (n - 64)) - 1) : 0);
  return m;
}

// A mask argument of a level-0 call: a bit pattern (uint64_t mask[2]) or a lane count.
struct MaskArg {
  bool is_bits = false;
  uint64_t hi = 0;
  uint64_t lo = 0;
  static MaskArg bits(const uint64_t mask[]) { return MaskArg{true, mask[1], mask[0]}; }
  static MaskArg bits_low(const uint64_t mask[]) { return MaskArg{true, 0, mask[0]}; }
  static MaskArg count(uint64_t n) { return MaskArg{false, 0, n}; }
};

// Writes a level-0 mask argument into the register, as the instruction prologue
// does when isSetMask is true. In counter mode the argument is an element count.
inline void load_mask(const MaskArg& m, uint32_t lanes) {
  CoreState& c = core();
  if (c.mask_mode == MaskMode::COUNTER) {
    c.mask_high = 0;
    c.mask_low = m.lo;
    return;
  }
  if (m.is_bits) {
    // 32-bit lanes use only mask[0]; 64-bit lanes only its low 32 bits.
    c.mask_high = lanes > 64 ? m.hi : 0;
    c.mask_low = lanes >= 64 ? m.lo : (m.lo & ((1ull << lanes) - 1));
  } else {
    MaskBits b = prefix_bits(m.lo, lanes);
    c.mask_high = b.hi;
    c.mask_low = b.lo;
  }
}

}  // namespace aoc::vec

namespace AscendC {

inline void SetMaskCount() { aoc::core().mask_mode = MaskMode::COUNTER; }
inline void SetMaskNorm() { aoc::core().mask_mode = MaskMode::NORMAL; }

inline void ResetMask() {
  aoc::core().mask_high = ~0ull;
  aoc::core().mask_low = ~0ull;
}

// Sets the raw register. `mode` tells how the caller means the value; the register
// mode itself is changed only by SetMaskCount / SetMaskNorm.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
  aoc::core().mask_high = maskHigh;
  aoc::core().mask_low = maskLow;
}

// Normal mode: enable the first `len` lanes. Counter mode: process `len` elements.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
  aoc::CoreState& c = aoc::core();
  if (mode == MaskMode::COUNTER || c.mask_mode == MaskMode::COUNTER) {
    c.mask_high = 0;
    c.mask_low = static_cast<uint64_t>(len < 0 ? 0 : len);
    return;
  }
  constexpr uint32_t lanes = aoc::vec::lanes_for(sizeof(T) < 2 ? 2 : sizeof(T));
  aoc::vec::MaskBits b = aoc::vec::prefix_bits(static_cast<uint64_t>(len < 0 ? 0 : len), lanes);
  c.mask_high = b.hi;
  c.mask_low = b.lo;
}

// Older helper class of the device headers for the mask register.
class AscendCUtils {
 public:
  template <typename T, bool isSetMask = true> static void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
    if constexpr (!isSetMask) return;
    if (ASCEND_IS_NOT_AIC) SetVectorMask<T>(maskHigh, maskLow);
  }
  // Normal-mode mask for the first `len` lanes, with the device's two shortcuts: exactly 64
  // enables the low word, and len equal to one block's element count (32 / sizeof(T)) or of at
  // least 128 enables every lane.
  template <typename T, bool isSetMask = true> static void SetMask(int32_t len) {
    if constexpr (!isSetMask) return;
    constexpr int32_t block_elems = static_cast<int32_t>(32 / sizeof(T));
    if (len == 64) return SetMask<T>(0, ~0ull);
    if (len == block_elems || len >= 128) return SetMask<T>(~0ull, ~0ull);
    const uint64_t n = static_cast<uint64_t>(len < 0 ? 0 : len);
    SetMask<T>(n > 64 ? (uint64_t{1} << (n - 64)) - 1 : 0, n > 64 ? ~0ull : (uint64_t{1} << n) - 1);
  }
  template <typename T> static void SetMaskCount() { AscendC::SetMaskCount(); }
  template <typename T> static void SetMaskNorm() { AscendC::SetMaskNorm(); }
  template <bool isSetMask = true> static void ResetMask() {
    if constexpr (isSetMask) AscendC::ResetMask();
  }
};

}  // namespace AscendC
