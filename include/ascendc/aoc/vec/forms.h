// The two call forms shared by element-wise instructions: the count form (counter
// mode over the first `count` elements, contiguous operands) and the level-0 form
// (mask + repeatTime + repeat params). Lane functions have the shape
// f(dst&, src0[, src1]); the widest operand type sets the lanes per repeat.
#pragma once
#include <algorithm>
#include <cstdint>

#include "aoc/vec/engine.h"
#include "aoc/vec/params.h"

namespace aoc::vec {

template <typename A, typename B = A> constexpr uint32_t lanes_of() {
  return lanes_for(static_cast<uint32_t>(std::max(sizeof(A), sizeof(B))));
}

// mask[] of a level-0 call: 16-bit lanes use both words, wider lanes only mask[0].
template <typename T> MaskArg mask_arg(const uint64_t mask[]) {
  return sizeof(T) <= 2 ? MaskArg::bits(mask) : MaskArg::bits_low(mask);
}

template <typename TD, typename TS, typename F>
void binary_count(const Call& call, F&& f, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src0,
                  const AscendC::LocalTensor<TS>& src1, int64_t count) {
  const Iter it = counted(lanes_of<TD, TS>(), checked_count(count, call.op, call.loc));
  elementwise(call, it, f, operand(dst, dense<TD>(it)), operand(src0, dense<TS>(it)), operand(src1, dense<TS>(it)));
  restore_after_count();
}

template <typename TD, typename TS, typename F>
void binary_level0(const Call& call, F&& f, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src0,
                   const AscendC::LocalTensor<TS>& src1, const MaskArg& mask, uint8_t repeatTime,
                   const AscendC::BinaryRepeatParams& p, bool isSetMask) {
  const Iter it = level0(lanes_of<TD, TS>(), mask, repeatTime, isSetMask);
  elementwise(call, it, f, operand(dst, layout<TD>(it, p.dstBlkStride, p.dstRepStride)),
              operand(src0, layout<TS>(it, p.src0BlkStride, p.src0RepStride)),
              operand(src1, layout<TS>(it, p.src1BlkStride, p.src1RepStride)));
}

template <typename TD, typename TS, typename F>
void unary_count(const Call& call, F&& f, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src,
                 int64_t count) {
  const Iter it = counted(lanes_of<TD, TS>(), checked_count(count, call.op, call.loc));
  elementwise(call, it, f, operand(dst, dense<TD>(it)), operand(src, dense<TS>(it)));
  restore_after_count();
}

template <typename TD, typename TS, typename F>
void unary_level0(const Call& call, F&& f, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src,
                  const MaskArg& mask, uint8_t repeatTime, const AscendC::UnaryRepeatParams& p, bool isSetMask) {
  const Iter it = level0(lanes_of<TD, TS>(), mask, repeatTime, isSetMask);
  elementwise(call, it, f, operand(dst, layout<TD>(it, p.dstBlkStride, p.dstRepStride)),
              operand(src, layout<TS>(it, p.srcBlkStride, p.srcRepStride)));
}

}  // namespace aoc::vec

#define AOC_VEC_LOC std::source_location loc = std::source_location::current()
