// Gather (dst[i] = element at byte address srcBase + offset[i] of src) and GatherMask
// (compacts the elements selected by a bit pattern to the front of dst).
// GatherMask with reduceMode = true runs in counter mode: `mask` is the total number
// of src0 elements considered and repeatTimes is ignored; with reduceMode = false every
// lane of repeatTimes repeats is considered and `mask` is not used.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

template <typename T>
void gather(const Call& call, const Iter& it, const AscendC::LocalTensor<T>& dst, const Layout& dlay,
            const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint32_t>& offsets, uint32_t srcBase) {
  Layout olay;  // one offset per lane, consecutive over repeats
  olay.blk_lanes = it.lanes / 8;
  olay.blk_step = it.lanes / 8;
  olay.rep_step = it.lanes;
  const Range ro = check_operand(offsets, touched(it, olay), call.op, call.loc, "srcOffset");
  const Range rd = check_operand(dst, touched(it, dlay), call.op, call.loc, "dst");
  Span ss;
  for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE {
    const uint64_t byte = uint64_t(srcBase) + offsets.aoc_ptr()[olay.index(r, l)];
    aoc::check(byte % sizeof(T) == 0, call.op, call.loc, "byte offset ", byte, " (lane ", uint64_t(r) * it.lanes + l,
               ") is not a multiple of the element size ", sizeof(T));
    ss.add(byte / sizeof(T));
  });
  const Range rs = check_operand(src, ss, call.op, call.loc, "src");
  Record(call.op, call.loc, dtype_of<T>(), dtype_of<T>(), it.enabled_lanes(), it.repeats).read(rs).read(ro).write(rd);
  std::vector<T> vals(it.enabled_lanes());  // read everything first: dst may overlap src
  T* v = vals.data();  // not vals[k]: the library's operator[] would be a call per lane
  size_t k = 0;
  for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE {
    v[k++] = src.aoc_ptr()[(uint64_t(srcBase) + offsets.aoc_ptr()[olay.index(r, l)]) / sizeof(T)];
  });
  k = 0;
  for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE { dst.aoc_ptr()[dlay.index(r, l)] = v[k++]; });
}

// Builtin GatherMask patterns 1..7 for lane l.
AOC_FORCE_INLINE bool builtin_pattern(uint8_t pattern, uint32_t l) {
  switch (pattern) {
    case 1: return l % 2 == 0;
    case 2: return l % 2 == 1;
    case 3: return l % 4 == 0;
    case 4: return l % 4 == 1;
    case 5: return l % 4 == 2;
    case 6: return l % 4 == 3;
    case 7: return true;
    default: return false;
  }
}

template <typename T, typename Pick>
void gather_mask(const Call& call, const Iter& it, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src0, const Layout& slay, Range pattern_range, Pick&& pick,
                 uint64_t& rsvdCnt) {
  const Range rs = check_operand(src0, touched(it, slay), call.op, call.loc, "src0");
  std::vector<T> picked(it.enabled_lanes());  // not push_back: a library call per lane
  T* kept = picked.data();
  size_t n = 0;
  for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE {
    if (pick(r, l)) kept[n++] = src0.aoc_ptr()[slay.index(r, l)];
  });
  Span ds;
  ds.add_range(0, n);
  const Range rd = check_operand(dst, ds, call.op, call.loc, "dst");
  Record(call.op, call.loc, dtype_of<T>(), dtype_of<T>(), it.enabled_lanes(), it.repeats)
      .read(rs)
      .read(pattern_range)
      .write(rd);
  std::copy(kept, kept + n, dst.aoc_ptr());
  rsvdCnt = n;
}

template <typename T> Iter gather_mask_iter(bool reduceMode, uint32_t mask, const AscendC::GatherMaskParams& p) {
  return reduceMode ? counted(lanes_of<T>(), mask) : counted(lanes_of<T>(), uint64_t(p.repeatTimes) * lanes_of<T>());
}

}  // namespace aoc::vec

namespace AscendC {

template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count, AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Gather: element type must be 2 or 4 bytes");
  const aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), count);
  aoc::vec::gather(aoc::vec::Call{"Gather", loc}, it, dst, aoc::vec::dense<T>(it), src, srcOffset, srcBaseAddr);
  aoc::vec::restore_after_count();
}
template <typename T, bool isSetMask = true>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Gather: element type must be 2 or 4 bytes");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(mask), repeatTime, isSetMask);
  aoc::vec::gather(aoc::vec::Call{"Gather", loc}, it, dst, aoc::vec::layout<T>(it, 1, dstRepStride), src, srcOffset,
                   srcBaseAddr);
}
template <typename T, bool isSetMask = true>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                   const uint16_t dstRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "Gather: element type must be 2 or 4 bytes");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);
  aoc::vec::gather(aoc::vec::Call{"Gather", loc}, it, dst, aoc::vec::layout<T>(it, 1, dstRepStride), src, srcOffset,
                   srcBaseAddr);
}

// User pattern: bit l of repeat r's pattern (repeat r starts src1RepeatStride blocks further).
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt,
                       AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T> && sizeof(U) == sizeof(T),
                "GatherMask: pattern type must be uint16_t for 16-bit and uint32_t for 32-bit elements");
  const aoc::vec::Iter it = aoc::vec::gather_mask_iter<T>(reduceMode, mask, p);
  const LocalTensor<uint8_t> bytes = src1Pattern.template ReinterpretCast<uint8_t>();
  const uint64_t rep_bytes = uint64_t(p.src1RepeatStride) * 32;
  aoc::vec::Span ps;
  aoc::vec::for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE { ps.add(r * rep_bytes + l / 8); });
  const aoc::Range pr = aoc::vec::check_operand(bytes, ps, "GatherMask", loc, "src1Pattern");
  const uint8_t* bits = bytes.aoc_ptr();
  aoc::vec::gather_mask(aoc::vec::Call{"GatherMask", loc}, it, dst, src0,
                        aoc::vec::layout<T>(it, p.src0BlockStride, p.src0RepeatStride), pr,
                        [&](uint32_t r, uint32_t l) AOC_LANE { return (bits[r * rep_bytes + l / 8] >> (l % 8)) & 1u; }, rsvdCnt);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt,
                       AOC_VEC_LOC) {
  static_assert(aoc::vec::b16_b32<T>, "GatherMask: element type must be 2 or 4 bytes");
  aoc::check(src1Pattern >= 1 && src1Pattern <= 7, "GatherMask", loc, "builtin pattern ", int(src1Pattern),
             " is not in 1..7");
  const aoc::vec::Iter it = aoc::vec::gather_mask_iter<T>(reduceMode, mask, p);
  aoc::vec::gather_mask(aoc::vec::Call{"GatherMask", loc}, it, dst, src0,
                        aoc::vec::layout<T>(it, p.src0BlockStride, p.src0RepeatStride), aoc::Range{},
                        [&](uint32_t, uint32_t l) AOC_LANE { return aoc::vec::builtin_pattern(src1Pattern, l); }, rsvdCnt);
}

}  // namespace AscendC
