// The static-tensor style of kernel writing, without TPipe and queues: LocalMemAllocator hands out
// consecutive 32-byte aligned tensors of one local memory, and InitSocState puts the core's
// control registers in their initial state, as such kernels call first.
#pragma once
#include <cstdint>
#include <source_location>

#include "aoc/tensor.h"
#include "aoc/mem_atomic.h"
#include "aoc/vec/mask.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace detail {
// The position a tensor of each memory gets when the caller names none.
constexpr TPosition default_position(Hardware h) {
  switch (h) {
    case Hardware::L1: return TPosition::A1;
    case Hardware::L0A: return TPosition::A2;
    case Hardware::L0B: return TPosition::B2;
    case Hardware::L0C: return TPosition::CO1;
    case Hardware::BIAS: return TPosition::C2;
    case Hardware::FIXBUF: return TPosition::C2PIPE2GM;
    default: return TPosition::VECCALC;
  }
}
}  // namespace detail

template <Hardware hard = Hardware::UB> class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX, "LocalMemAllocator: a local memory (UB, L1, L0A ...)");

 public:
  LocalMemAllocator() = default;
  // Byte address of the next tensor.
  uint32_t GetCurAddr() const { return cur_; }

  template <class T, uint32_t tileSize>
  LocalTensor<T> Alloc(std::source_location loc = std::source_location::current()) {
    return Alloc<detail::default_position(hard), T>(tileSize, loc);
  }
  template <TPosition pos, class T, uint32_t tileSize>
  LocalTensor<T> Alloc(std::source_location loc = std::source_location::current()) {
    return Alloc<pos, T>(tileSize, loc);
  }
  template <class T> LocalTensor<T> Alloc(uint32_t tileSize, std::source_location loc = std::source_location::current()) {
    return Alloc<detail::default_position(hard), T>(tileSize, loc);
  }
  template <TPosition pos, class T>
  LocalTensor<T> Alloc(uint32_t tileSize, std::source_location loc = std::source_location::current()) {
    LocalTensor<T> t(pos, cur_, tileSize, loc);  // checks the memory's bounds and alignment
    cur_ += static_cast<uint32_t>((uint64_t(tileSize) * sizeof(T) + 31) / 32 * 32);
    return t;
  }

 private:
  uint32_t cur_ = 0;
};

// The vector mask in normal mode with every lane on, and no atomic accumulation.
inline void InitSocState() {
  SetMaskNorm();
  ResetMask();
  SetAtomicNone();
}

}  // namespace AscendC
