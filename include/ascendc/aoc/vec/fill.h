// Instructions that fill a destination: Duplicate (scalar broadcast), Brcb (each of
// 8 source elements per repeat fills one 32-byte block) and CreateVecIndex.
#pragma once
#include <cstdint>
#include <type_traits>

#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

template <typename T> void duplicate(const Call& call, const AscendC::LocalTensor<T>& dst, T v, const Iter& it,
                                     const Layout& lay) {
  elementwise(call, it, [v](T& d) AOC_LANE { d = v; }, operand(dst, lay));
}

}  // namespace aoc::vec

namespace AscendC {

template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const std::type_identity_t<T>& scalarValue, const int32_t& count,
                      AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Duplicate: element type must be 2 or 4 bytes");
  const aoc::vec::Iter it =
      aoc::vec::counted(aoc::vec::lanes_of<T>(), aoc::vec::checked_count(count, "Duplicate", loc));
  aoc::vec::duplicate(aoc::vec::Call{"Duplicate", loc}, dst, T(scalarValue), it, aoc::vec::dense<T>(it));
  aoc::vec::restore_after_count();
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const std::type_identity_t<T>& scalarValue, const uint64_t mask[],
                      const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Duplicate: element type must be 2 or 4 bytes");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);
  aoc::vec::duplicate(aoc::vec::Call{"Duplicate", loc}, dst, T(scalarValue), it,
                      aoc::vec::layout<T>(it, dstBlockStride, dstRepeatStride));
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const std::type_identity_t<T>& scalarValue, const uint64_t mask,
                      const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Duplicate: element type must be 2 or 4 bytes");
  const aoc::vec::Iter it =
      aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(mask), repeatTime, isSetMask);
  aoc::vec::duplicate(aoc::vec::Call{"Duplicate", loc}, dst, T(scalarValue), it,
                      aoc::vec::layout<T>(it, dstBlockStride, dstRepeatStride));
}

// Per repeat, source elements 8r..8r+7 each fill one destination block. Not masked.
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                 const BrcbRepeatParams& repeatParams, AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Brcb: element type must be 2 or 4 bytes");
  aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), uint64_t(repeatTime) * aoc::vec::lanes_of<T>());
  aoc::vec::Layout from;
  from.blk_lanes = it.lanes / 8;
  from.blk_step = 1;
  from.rep_step = 8;
  from.lane_step = 0;
  aoc::vec::elementwise(aoc::vec::Call{"Brcb", loc}, it, [](T& d, const T& s) AOC_LANE { d = s; },
                        aoc::vec::operand(dst, aoc::vec::layout<T>(it, repeatParams.dstBlkStride,
                                                                   repeatParams.dstRepStride)),
                        aoc::vec::operand(src, from));
}

// dst[i] = firstValue + i for the first `count` elements.
template <typename T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const std::type_identity_t<T>& firstValue, uint32_t count,
                           AOC_VEC_LOC) {
  static_assert(aoc::vec::one_of<T, half, float, int16_t, int32_t>, "CreateVecIndex: unsupported element type");
  const aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), count);
  uint64_t i = 0;
  const auto first = aoc::vec::up(T(firstValue));
  aoc::vec::elementwise(aoc::vec::Call{"CreateVecIndex", loc}, it,
                        [&](T& d) AOC_LANE { d = T(first + static_cast<aoc::vec::calc_t<T>>(i++)); },
                        aoc::vec::operand(dst, aoc::vec::dense<T>(it)));
  aoc::vec::restore_after_count();
}

}  // namespace AscendC
