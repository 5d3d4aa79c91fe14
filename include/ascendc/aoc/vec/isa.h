// ISA-level vector intrinsics that public kernels call directly on UB addresses (the values
// GetPhyAddr() returns, cast to `__ubuf__ T*`), next to the AscendC API. Each runs as the API
// instruction it is the machine form of, so it is traced, timed and checked the same way.
#pragma once
#include <cstdint>

#include "aoc/vec/reduce.h"

namespace aoc::vec {

// A tensor of UB viewed from the raw address `p` to the end of UB: the intrinsics name only a
// start address, the instruction's own strides and repeats say how far it reaches.
template <typename T> AscendC::LocalTensor<T> ub_view(const T* p, const std::source_location& loc) {
  const uint64_t addr = reinterpret_cast<uintptr_t>(p);
  const uint64_t ub = memory_of(Space::UB).size();
  check(addr < ub && addr % sizeof(T) == 0, "vector intrinsic", loc, "address ", addr,
        " is not an element address inside UB (", ub, " bytes): pass a LocalTensor's GetPhyAddr()");
  const uint32_t base = uint32_t(addr / 32 * 32);
  const AscendC::LocalTensor<T> whole(AscendC::TPosition::VECCALC, base, uint32_t((ub - base) / sizeof(T)), loc);
  return whole[uint32_t((addr - base) / sizeof(T))];
}

}  // namespace aoc::vec

// vcadd: one sum per repeat over the lanes of the mask register (set by SetMask / SetVectorMask),
// the machine form of WholeReduceSum<T, false>. The trailing flag of the 220 form selects the
// accumulation order of the reduction tree, which does not change a correctly rounded sum here.
template <typename T>
inline void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                  bool = false, AOC_VEC_LOC) {
  AscendC::WholeReduceSum<T, false>(aoc::vec::ub_view(dst, loc), aoc::vec::ub_view(src, loc), 0, repeat, dstRepStride,
                                    srcBlkStride, srcRepStride, loc);
}
