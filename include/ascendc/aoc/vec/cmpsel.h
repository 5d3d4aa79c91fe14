// Compare (to a bit mask, LSB first: element i -> byte i/8, bit i%8), CompareScalar /
// Compares, the CmpMask register, and Select.
// - Count-form Compare and CompareScalar run whole repeats only: when count*sizeof(T)
//   is not a multiple of 256 the tail is not computed and its mask bits are not written.
// - Level-0 Compare ignores the mask argument (as on A2): every lane of every repeat is
//   compared, repeat r writing bits [r*lanes, (r+1)*lanes) of dst.
// - Float comparisons follow IEEE: with a NaN operand only NE is true.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

template <typename T> AOC_FORCE_INLINE bool compare(T a, T b, AscendC::CMPMODE mode) {
  using AscendC::CMPMODE;
  const auto x = up(a), y = up(b);
  switch (mode) {
    case CMPMODE::LT: return x < y;
    case CMPMODE::GT: return x > y;
    case CMPMODE::EQ: return x == y;
    case CMPMODE::LE: return x <= y;
    case CMPMODE::GE: return x >= y;
    case CMPMODE::NE: return !(x == y);
  }
  return false;
}

template <typename T> void check_cmp_mode(AscendC::CMPMODE mode, const char* api, const std::source_location& loc) {
  static_assert(one_of<T, half, float, int32_t>, "Compare: element type must be half, float or int32_t");
  if constexpr (std::is_same_v<T, int32_t>)
    aoc::check(mode == AscendC::CMPMODE::EQ, api, loc, "int32_t supports only CMPMODE::EQ");
}

AOC_FORCE_INLINE void set_bit(uint8_t* bytes, uint64_t i, bool v) {
  const uint8_t bit = static_cast<uint8_t>(1u << (i % 8));
  bytes[i / 8] = v ? static_cast<uint8_t>(bytes[i / 8] | bit) : static_cast<uint8_t>(bytes[i / 8] & ~bit);
}
AOC_FORCE_INLINE bool get_bit(const uint8_t* bytes, uint64_t i) { return (bytes[i / 8] >> (i % 8)) & 1u; }

// Compares src0 with src1 (tensor, or the scalar when src1 is null) and writes one bit
// per lane: into the dst tensor at bit r*lanes+l, or into the CmpMask register.
template <typename T, typename U>
void compare_to_bits(const Call& call, const Iter& it, AscendC::CMPMODE mode, const AscendC::LocalTensor<U>* dst,
                     Operand<T> s0, const Operand<T>* s1, T scalar, const std::source_location& loc) {
  check_cmp_mode<T>(mode, call.op, loc);
  Range wr{};
  uint8_t* out = core().cmp_mask;
  if (dst != nullptr) {
    const AscendC::LocalTensor<uint8_t> bytes = dst->template ReinterpretCast<uint8_t>();
    Span s;
    s.add_range(0, uint64_t(it.repeats) * it.lanes / 8);
    wr = check_operand(bytes, s, call.op, loc, "dst");
    out = bytes.aoc_ptr();
  } else {
    std::memset(out, 0, sizeof(core().cmp_mask));
  }
  const Range r0 = check_operand(*s0.t, touched(it, s0.lay), call.op, loc, "src0");
  const Range r1 = s1 ? check_operand(*s1->t, touched(it, s1->lay), call.op, loc, "src1") : Range{};
  Record rec(call.op, loc, dtype_of<T>(), DType::B1, it.enabled_lanes(), it.repeats);
  rec.read(r0).read(r1).write(wr);
  const T* a = s0.t->aoc_ptr();
  const T* b = s1 ? s1->t->aoc_ptr() : nullptr;
  for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE {
    const T y = b ? b[s1->lay.index(r, l)] : scalar;
    set_bit(out, uint64_t(r) * it.lanes + l, compare(a[s0.lay.index(r, l)], y, mode));
  });
}

// Whole repeats of a count-form compare (the 256-byte rule).
template <typename T> Iter whole_repeats(uint64_t count) {
  const uint64_t reps = count * sizeof(T) / 256;
  return counted(lanes_for(sizeof(T)), reps * lanes_for(sizeof(T)));
}
// Level-0 compare: the mask is not used, all lanes of repeatTime repeats.
template <typename T> Iter all_lanes(uint32_t repeatTime) {
  return counted(lanes_for(sizeof(T)), uint64_t(repeatTime) * lanes_for(sizeof(T)));
}

// Select: bit 1 takes src0, bit 0 takes src1 (or the scalar). VSEL_CMPMASK_SPR reuses
// bits [0, lanes) for every repeat; the other modes consume consecutive slices.
template <typename T>
void select(const Call& base, const Iter& it, AscendC::SELMODE mode, const uint8_t* bits, Range bits_range,
            Operand<T> d, Operand<T> s0, const Operand<T>* s1, T scalar) {
  Call call = base;
  call.extra_read = bits_range;
  const bool reuse = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
  auto pick = [&](uint32_t r, uint32_t l) AOC_LANE { return get_bit(bits, reuse ? l : uint64_t(r) * it.lanes + l); };
  if (s1 != nullptr) {
    elementwise(call, it, [&](uint32_t r, uint32_t l, T& o, T& a, T& b) AOC_LANE { o = pick(r, l) ? a : b; }, d, s0, *s1);
  } else {
    elementwise(call, it, [&](uint32_t r, uint32_t l, T& o, T& a) AOC_LANE { o = pick(r, l) ? a : scalar; }, d, s0);
  }
}

// The selection-mask bytes an iteration reads, validated; returns the byte pointer.
template <typename U>
const uint8_t* select_mask_bytes(const AscendC::LocalTensor<U>& selMask, const Iter& it, AscendC::SELMODE mode,
                                 const char* api, const std::source_location& loc, Range& range) {
  const AscendC::LocalTensor<uint8_t> bytes = selMask.template ReinterpretCast<uint8_t>();
  Span s;
  if (it.repeats > 0) {
    const bool reuse = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
    const uint64_t last_bit = reuse ? it.lanes - 1 : uint64_t(it.repeats - 1) * it.lanes + it.lanes_in(it.repeats - 1) - 1;
    s.add_range(0, last_bit / 8 + 1);
  }
  range = check_operand(bytes, s, api, loc, "selMask");
  return bytes.aoc_ptr();
}

}  // namespace aoc::vec

namespace AscendC {

// ---------------- Compare ----------------
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::whole_repeats<T>(count);
  const aoc::vec::Operand<T> b = aoc::vec::operand(src1, aoc::vec::dense<T>(it));
  aoc::vec::compare_to_bits(aoc::vec::Call{"Compare", loc}, it, cmpMode, &dst,
                            aoc::vec::operand(src0, aoc::vec::dense<T>(it)), &b, T{}, loc);
  aoc::vec::restore_after_count();
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::all_lanes<T>(repeatTime);
  const aoc::vec::Operand<T> b =
      aoc::vec::operand(src1, aoc::vec::layout<T>(it, repeatParams.src1BlkStride, repeatParams.src1RepStride));
  aoc::vec::compare_to_bits(
      aoc::vec::Call{"Compare", loc}, it, cmpMode, &dst,
      aoc::vec::operand(src0, aoc::vec::layout<T>(it, repeatParams.src0BlkStride, repeatParams.src0RepStride)), &b,
      T{}, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  const uint64_t bits[2] = {~0ull, ~0ull};
  Compare<T, U, isSetMask>(dst, src0, src1, cmpMode, bits, repeatTime, repeatParams, loc);
}

// One repeat compared into the CmpMask register, under the mask (disabled lanes give 0).
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
                    const BinaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), 1, isSetMask);
  const aoc::vec::Operand<T> b =
      aoc::vec::operand(src1, aoc::vec::layout<T>(it, repeatParams.src1BlkStride, repeatParams.src1RepStride));
  aoc::vec::compare_to_bits<T, uint8_t>(
      aoc::vec::Call{"Compare", loc}, it, cmpMode, nullptr,
      aoc::vec::operand(src0, aoc::vec::layout<T>(it, repeatParams.src0BlkStride, repeatParams.src0RepStride)), &b,
      T{}, loc);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
                    const BinaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(mask), 1, isSetMask);
  const aoc::vec::Operand<T> b =
      aoc::vec::operand(src1, aoc::vec::layout<T>(it, repeatParams.src1BlkStride, repeatParams.src1RepStride));
  aoc::vec::compare_to_bits<T, uint8_t>(
      aoc::vec::Call{"Compare", loc}, it, cmpMode, nullptr,
      aoc::vec::operand(src0, aoc::vec::layout<T>(it, repeatParams.src0BlkStride, repeatParams.src0RepStride)), &b,
      T{}, loc);
}

// ---------------- CompareScalar / Compares ----------------
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                          CMPMODE cmpMode, uint32_t count, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::whole_repeats<T>(count);
  aoc::vec::compare_to_bits<T, U>(aoc::vec::Call{"CompareScalar", loc}, it, cmpMode, &dst,
                                  aoc::vec::operand(src0, aoc::vec::dense<T>(it)), nullptr, src1Scalar, loc);
  aoc::vec::restore_after_count();
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                          CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                          const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::all_lanes<T>(repeatTime);
  aoc::vec::compare_to_bits<T, U>(
      aoc::vec::Call{"CompareScalar", loc}, it, cmpMode, &dst,
      aoc::vec::operand(src0, aoc::vec::layout<T>(it, repeatParams.srcBlkStride, repeatParams.srcRepStride)), nullptr,
      src1Scalar, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                          CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                          const UnaryRepeatParams& repeatParams, AOC_VEC_LOC) {
  const uint64_t bits[2] = {~0ull, ~0ull};
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, bits, repeatTime, repeatParams, loc);
}
// New name of CompareScalar.
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                     CMPMODE cmpMode, uint32_t count, AOC_VEC_LOC) {
  CompareScalar<T, U>(dst, src0, src1Scalar, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                     CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                     AOC_VEC_LOC) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                     CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                     AOC_VEC_LOC) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams, loc);
}

// ---------------- CmpMask register (128 bits = 16 bytes) ----------------
template <typename T> inline void GetCmpMask(const LocalTensor<T>& dst, AOC_VEC_LOC) {
  const LocalTensor<uint8_t> bytes = dst.template ReinterpretCast<uint8_t>();
  aoc::vec::Span s;
  s.add_range(0, 16);
  const aoc::Range rg = aoc::vec::check_operand(bytes, s, "GetCmpMask", loc, "dst");
  aoc::vec::Record("GetCmpMask", loc, aoc::DType::B1, aoc::DType::None, 128, 1).write(rg);
  std::memcpy(bytes.aoc_ptr(), aoc::core().cmp_mask, 16);
}
template <typename T> inline void SetCmpMask(const LocalTensor<T>& src, AOC_VEC_LOC) {
  const LocalTensor<uint8_t> bytes = src.template ReinterpretCast<uint8_t>();
  aoc::vec::Span s;
  s.add_range(0, 16);
  const aoc::Range rg = aoc::vec::check_operand(bytes, s, "SetCmpMask", loc, "src");
  aoc::vec::Record("SetCmpMask", loc, aoc::DType::B1, aoc::DType::None, 128, 1).read(rg);
  std::memcpy(aoc::core().cmp_mask, bytes.aoc_ptr(), 16);
}

// ---------------- Select ----------------
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), count);
  aoc::Range mr;
  const uint8_t* bits = aoc::vec::select_mask_bytes(selMask, it, selMode, "Select", loc, mr);
  const aoc::vec::Operand<T> b = aoc::vec::operand(src1, aoc::vec::dense<T>(it));
  aoc::vec::select(aoc::vec::Call{"Select", loc}, it, selMode, bits, mr, aoc::vec::operand(dst, aoc::vec::dense<T>(it)),
                   aoc::vec::operand(src0, aoc::vec::dense<T>(it)), &b, T{});
  aoc::vec::restore_after_count();
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const std::type_identity_t<T> src1Scalar, SELMODE selMode, uint32_t count, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), count);
  aoc::Range mr;
  const uint8_t* bits = aoc::vec::select_mask_bytes(selMask, it, selMode, "Select", loc, mr);
  aoc::vec::select<T>(aoc::vec::Call{"Select", loc}, it, selMode, bits, mr,
                      aoc::vec::operand(dst, aoc::vec::dense<T>(it)), aoc::vec::operand(src0, aoc::vec::dense<T>(it)),
                      nullptr, src1Scalar);
  aoc::vec::restore_after_count();
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams& p, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);
  aoc::Range mr;
  const uint8_t* bits = aoc::vec::select_mask_bytes(selMask, it, selMode, "Select", loc, mr);
  const aoc::vec::Operand<T> b = aoc::vec::operand(src1, aoc::vec::layout<T>(it, p.src1BlkStride, p.src1RepStride));
  aoc::vec::select(aoc::vec::Call{"Select", loc}, it, selMode, bits, mr,
                   aoc::vec::operand(dst, aoc::vec::layout<T>(it, p.dstBlkStride, p.dstRepStride)),
                   aoc::vec::operand(src0, aoc::vec::layout<T>(it, p.src0BlkStride, p.src0RepStride)), &b, T{});
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams& p, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(mask), repeatTime, isSetMask);
  aoc::Range mr;
  const uint8_t* bits = aoc::vec::select_mask_bytes(selMask, it, selMode, "Select", loc, mr);
  const aoc::vec::Operand<T> b = aoc::vec::operand(src1, aoc::vec::layout<T>(it, p.src1BlkStride, p.src1RepStride));
  aoc::vec::select(aoc::vec::Call{"Select", loc}, it, selMode, bits, mr,
                   aoc::vec::operand(dst, aoc::vec::layout<T>(it, p.dstBlkStride, p.dstRepStride)),
                   aoc::vec::operand(src0, aoc::vec::layout<T>(it, p.src0BlkStride, p.src0RepStride)), &b, T{});
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const std::type_identity_t<T> src1Scalar, SELMODE selMode, const uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams& p, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(mask), repeatTime, isSetMask);
  aoc::Range mr;
  const uint8_t* bits = aoc::vec::select_mask_bytes(selMask, it, selMode, "Select", loc, mr);
  aoc::vec::select<T>(aoc::vec::Call{"Select", loc}, it, selMode, bits, mr,
                      aoc::vec::operand(dst, aoc::vec::layout<T>(it, p.dstBlkStride, p.dstRepStride)),
                      aoc::vec::operand(src0, aoc::vec::layout<T>(it, p.src0BlkStride, p.src0RepStride)), nullptr,
                      src1Scalar);
}
// Register form: the selection bits come from the CmpMask register (SetCmpMask or a
// Compare without dst), reused for every repeat; the current mask register applies.
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   uint8_t repeatTime, const BinaryRepeatParams& p, AOC_VEC_LOC) {
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg{}, repeatTime, false);
  const aoc::vec::Operand<T> b = aoc::vec::operand(src1, aoc::vec::layout<T>(it, p.src1BlkStride, p.src1RepStride));
  aoc::vec::select(aoc::vec::Call{"Select", loc}, it, SELMODE::VSEL_CMPMASK_SPR, aoc::core().cmp_mask, aoc::Range{},
                   aoc::vec::operand(dst, aoc::vec::layout<T>(it, p.dstBlkStride, p.dstRepStride)),
                   aoc::vec::operand(src0, aoc::vec::layout<T>(it, p.src0BlkStride, p.src0RepStride)), &b, T{});
}

}  // namespace AscendC
