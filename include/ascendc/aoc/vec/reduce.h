// Reductions. Sums inside one repeat follow the hardware tree: adjacent pairs are
// added level by level (lane 0+1, 2+3, ...), each addition rounded to the element
// type, disabled lanes contributing 0. Max/Min pick the smallest index on ties; a NaN
// wins (the first NaN is the result), consistent with binary Max/Min.
// Index outputs are stored in the bits of a T slot (uint16 bits for half, uint32 for
// float); level-0 ReduceMax/Min indices count lanes in repeat order (r*lanes + lane).
// Per-repeat outputs of BlockReduce*/PairReduceSum are placed at r*dstRepStride
// repeat-outputs (8 resp. lanes/2 elements); WholeReduce* at r*dstRepStride results
// (a result is 2 slots when it has value and index). Blocks or repeats without an
// enabled lane leave their outputs untouched.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"

namespace aoc::vec {

// The value and index last produced by ReduceMax/ReduceMin (GetReduceMaxMinCount).
struct ReduceRegister {
  uint64_t value_bits = 0;
  uint64_t index = 0;
};
inline thread_local ReduceRegister reduce_register;

template <typename T> constexpr bool reduce_type = one_of<T, half, float>;

// The per-lane loops below are uncounted (aoc/instrumentation.h) and work on plain arrays: the
// library's std::array::operator[] would not be inlined into them and cost a call per lane.
inline constexpr uint32_t kMaxLanes = 128;

// Sum of vals[0..n) (n a power of two) by the pairwise tree; vals is overwritten.
template <typename T> AOC_API_UNCOUNTED T tree_sum(T* vals, uint32_t n) {
  for (; n > 1; n /= 2)
    for (uint32_t i = 0; i < n / 2; ++i) vals[i] = add(vals[2 * i], vals[2 * i + 1]);
  return vals[0];
}

template <typename T> AOC_FORCE_INLINE bool better(T cand, T best, bool is_max) {
  if (is_nan(best)) return false;
  if (is_nan(cand)) return true;
  return is_max ? up(cand) > up(best) : up(cand) < up(best);
}

// Lanes [first, first+n) of repeat r: values (disabled lanes as 0) and whether any is on.
template <typename T>
AOC_API_UNCOUNTED bool load_lanes(const Iter& it, const Layout& lay, const T* src, uint32_t r, uint32_t first, uint32_t n,
                                  T* vals) {
  bool any = false;
  for (uint32_t l = 0; l < n; ++l) {
    const bool on = r < it.repeats && first + l < it.lanes_in(r) && it.enabled(r, first + l);
    vals[l] = on ? src[lay.index(r, first + l)] : T(0);
    any = any || on;
  }
  return any;
}

// Extreme value and its lane of lanes [first, first+n) of repeat r; false if none enabled.
template <typename T>
AOC_API_UNCOUNTED bool extreme(const Iter& it, const Layout& lay, const T* src, uint32_t r, uint32_t first, uint32_t n, bool is_max,
             T& best, uint32_t& best_lane) {
  bool found = false;
  for (uint32_t l = first; l < first + n && l < it.lanes_in(r); ++l) {
    if (!it.enabled(r, l)) continue;
    const T v = src[lay.index(r, l)];
    if (!found || better(v, best, is_max)) {
      best = v;
      best_lane = l;
      found = true;
    }
  }
  return found;
}

template <typename T> AOC_FORCE_INLINE T index_bits(uint64_t index) {
  T out{};
  if constexpr (sizeof(T) == 2) {
    const uint16_t b = static_cast<uint16_t>(index);
    std::memcpy(static_cast<void*>(&out), &b, 2);
  } else {
    const uint32_t b = static_cast<uint32_t>(index);
    std::memcpy(static_cast<void*>(&out), &b, 4);
  }
  return out;
}
template <typename T> AOC_FORCE_INLINE uint64_t value_bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// Sum of the counter-mode values held in work[0..n) by repeated tree passes in place.
template <typename T> AOC_API_UNCOUNTED T sum_passes(T* work, uint64_t n) {
  constexpr uint32_t lanes = lanes_for(sizeof(T));
  while (n > 1) {
    const uint64_t reps = (n + lanes - 1) / lanes;
    for (uint64_t r = 0; r < reps; ++r) {
      T vals[kMaxLanes];
      for (uint32_t l = 0; l < lanes; ++l) vals[l] = r * lanes + l < n ? work[r * lanes + l] : T(0);
      work[r] = tree_sum(vals, lanes);
    }
    n = reps;
  }
  return work[0];
}

// Whole-tensor sum (ReduceSum): per repeat tree sums into work, then passes over work.
template <typename T>
void reduce_sum(const Call& call, const Iter& it, const Layout& lay, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work, uint32_t trace_repeats) {
  const Range rs = check_operand(src, touched(it, lay), call.op, call.loc, "src");
  Span ds;
  ds.add(0);
  const Range rd = check_operand(dst, it.repeats ? ds : Span{}, call.op, call.loc, "dst");
  Span ws;
  if (it.repeats > 1) ws.add_range(0, it.repeats);
  const Range rw = check_operand(work, ws, call.op, call.loc, "work");
  Record(call.op, call.loc, dtype_of<T>(), dtype_of<T>(), it.enabled_lanes(), trace_repeats).read(rs).read(rw).write(rd);
  if (it.repeats == 0) return;
  T vals[kMaxLanes];
  if (it.repeats == 1) {
    load_lanes(it, lay, src.aoc_ptr(), 0, 0, it.lanes, vals);
    dst.aoc_ptr()[0] = tree_sum(vals, it.lanes);
    return;
  }
  T* w = work.aoc_ptr();
  for (uint32_t r = 0; r < it.repeats; ++r) {
    load_lanes(it, lay, src.aoc_ptr(), r, 0, it.lanes, vals);
    w[r] = tree_sum(vals, it.lanes);
  }
  dst.aoc_ptr()[0] = sum_passes(w, it.repeats);
}

// Whole-tensor max/min with the smallest index of the extreme (ReduceMax/ReduceMin).
template <typename T>
void reduce_extreme(const Call& call, const Iter& it, const Layout& lay, bool is_max, const AscendC::LocalTensor<T>& dst,
                    const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work, bool calIndex,
                    uint32_t trace_repeats) {
  const Range rs = check_operand(src, touched(it, lay), call.op, call.loc, "src");
  Span ds;
  if (it.repeats) ds.add_range(0, calIndex ? 2 : 1);
  const Range rd = check_operand(dst, ds, call.op, call.loc, "dst");
  Span ws;
  if (it.repeats > 1) ws.add_range(0, 2ull * it.repeats);
  const Range rw = check_operand(work, ws, call.op, call.loc, "work");
  Record(call.op, call.loc, dtype_of<T>(), dtype_of<T>(), it.enabled_lanes(), trace_repeats).read(rs).read(rw).write(rd);
  bool found = false;
  T best{};
  uint64_t best_index = 0;
  for (uint32_t r = 0; r < it.repeats; ++r) {
    T v{};
    uint32_t lane = 0;
    if (!extreme(it, lay, src.aoc_ptr(), r, 0, it.lanes, is_max, v, lane)) continue;
    if (it.repeats > 1) {  // first pass results, as the hardware leaves them in work
      work.aoc_ptr()[2 * r] = v;
      work.aoc_ptr()[2 * r + 1] = index_bits<T>(lane);
    }
    if (!found || better(v, best, is_max)) {
      best = v;
      best_index = uint64_t(r) * it.lanes + lane;
      found = true;
    }
  }
  if (!found) return;
  dst.aoc_ptr()[0] = best;
  if (calIndex) dst.aoc_ptr()[1] = index_bits<T>(best_index);
  reduce_register.value_bits = value_bits(best);
  reduce_register.index = best_index;
  core().reduce_max_min_count = best_index;
}

enum class Kind { Sum, Max, Min };
constexpr Kind reduce_kind(AscendC::ReduceType t) {
  return t == AscendC::ReduceType::SUM ? Kind::Sum : t == AscendC::ReduceType::MAX ? Kind::Max : Kind::Min;
}

// One result per repeat (WholeReduce* / ReduceRepeat / RepeatReduceSum).
template <typename T>
void reduce_per_repeat(const Call& call, const Iter& it, const Layout& lay, Kind kind, AscendC::ReduceOrder order,
                       const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint64_t dstRepStride) {
  using AscendC::ReduceOrder;
  const bool pair = kind != Kind::Sum && (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
  const uint64_t slots = pair ? 2 : 1;
  const Range rs = check_operand(src, touched(it, lay), call.op, call.loc, "src");
  Span ds;
  for (uint32_t r = 0; r < it.repeats; ++r) ds.add_range(r * dstRepStride * slots, slots);
  const Range rd = check_operand(dst, ds, call.op, call.loc, "dst");
  Record(call.op, call.loc, dtype_of<T>(), dtype_of<T>(), it.enabled_lanes(), it.repeats).read(rs).write(rd);
  T* out = dst.aoc_ptr();
  for (uint32_t r = 0; r < it.repeats; ++r) {
    T* o = out + r * dstRepStride * slots;
    if (kind == Kind::Sum) {
      T vals[kMaxLanes];
      if (load_lanes(it, lay, src.aoc_ptr(), r, 0, it.lanes, vals)) o[0] = tree_sum(vals, it.lanes);
      continue;
    }
    T v{};
    uint32_t lane = 0;
    if (!extreme(it, lay, src.aoc_ptr(), r, 0, it.lanes, kind == Kind::Max, v, lane)) continue;
    switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX: o[0] = v; o[1] = index_bits<T>(lane); break;
      case ReduceOrder::ORDER_INDEX_VALUE: o[0] = index_bits<T>(lane); o[1] = v; break;
      case ReduceOrder::ORDER_ONLY_VALUE: o[0] = v; break;
      case ReduceOrder::ORDER_ONLY_INDEX: o[0] = index_bits<T>(lane); break;
    }
  }
}

// Fixed-size groups of lanes per repeat: one result per 32 B block (group = lanes/8)
// or per adjacent pair (group = 2); outputs of repeat r start at r*dstRepStride*groups.
template <typename T>
void reduce_groups(const Call& call, const Iter& it, const Layout& lay, Kind kind, uint32_t group,
                   const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint64_t dstRepStride) {
  const uint32_t groups = it.lanes / group;
  const Range rs = check_operand(src, touched(it, lay), call.op, call.loc, "src");
  Span ds;
  for (uint32_t r = 0; r < it.repeats; ++r) ds.add_range(r * dstRepStride * groups, groups);
  const Range rd = check_operand(dst, ds, call.op, call.loc, "dst");
  Record(call.op, call.loc, dtype_of<T>(), dtype_of<T>(), it.enabled_lanes(), it.repeats).read(rs).write(rd);
  for (uint32_t r = 0; r < it.repeats; ++r) {
    for (uint32_t g = 0; g < groups; ++g) {
      T* o = dst.aoc_ptr() + r * dstRepStride * groups + g;
      if (kind == Kind::Sum) {
        T vals[kMaxLanes];
        if (load_lanes(it, lay, src.aoc_ptr(), r, g * group, group, vals)) *o = tree_sum(vals, group);
      } else {
        T v{};
        uint32_t lane = 0;
        if (extreme(it, lay, src.aoc_ptr(), r, g * group, group, kind == Kind::Max, v, lane)) *o = v;
      }
    }
  }
}

}  // namespace aoc::vec

namespace AscendC {

// ---------------- ReduceSum / ReduceMax / ReduceMin (whole tensor) ----------------
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceSum: element type must be half or float");
  const aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), aoc::vec::checked_count(count, "ReduceSum", loc));
  aoc::vec::reduce_sum(aoc::vec::Call{"ReduceSum", loc}, it, aoc::vec::dense<T>(it), dst, src, sharedTmpBuffer,
                       it.repeats);
  aoc::vec::restore_after_count();
}
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceSum: element type must be half or float");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, true);
  aoc::vec::reduce_sum(aoc::vec::Call{"ReduceSum", loc}, it, aoc::vec::layout<T>(it, 1, srcRepStride), dst, src,
                       sharedTmpBuffer, it.repeats);
}
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceSum: element type must be half or float");
  const aoc::vec::Iter it =
      aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, true);
  aoc::vec::reduce_sum(aoc::vec::Call{"ReduceSum", loc}, it, aoc::vec::layout<T>(it, 1, srcRepStride), dst, src,
                       sharedTmpBuffer, it.repeats);
}

#define AOC_VEC_REDUCE_EXTREME(NAME, IS_MAX)                                                                          \
  template <typename T>                                                                                              \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,      \
                   const int32_t count, bool calIndex = false, AOC_VEC_LOC) {                                        \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it = aoc::vec::counted(aoc::vec::lanes_of<T>(), aoc::vec::checked_count(count, #NAME, loc)); \
    aoc::vec::reduce_extreme(aoc::vec::Call{#NAME, loc}, it, aoc::vec::dense<T>(it), IS_MAX, dst, src,               \
                             sharedTmpBuffer, calIndex, it.repeats);                                                 \
    aoc::vec::restore_after_count();                                                                                 \
  }                                                                                                                  \
  template <typename T>                                                                                              \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,      \
                   const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false, \
                   AOC_VEC_LOC) {                                                                                    \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, true); \
    aoc::vec::reduce_extreme(aoc::vec::Call{#NAME, loc}, it, aoc::vec::layout<T>(it, 1, srcRepStride), IS_MAX, dst,  \
                             src, sharedTmpBuffer, calIndex, it.repeats);                                            \
  }                                                                                                                  \
  template <typename T>                                                                                              \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,      \
                   const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false,  \
                   AOC_VEC_LOC) {                                                                                    \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(),                                             \
                                               aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, true); \
    aoc::vec::reduce_extreme(aoc::vec::Call{#NAME, loc}, it, aoc::vec::layout<T>(it, 1, srcRepStride), IS_MAX, dst,  \
                             src, sharedTmpBuffer, calIndex, it.repeats);                                            \
  }
AOC_VEC_REDUCE_EXTREME(ReduceMax, true)
AOC_VEC_REDUCE_EXTREME(ReduceMin, false)
#undef AOC_VEC_REDUCE_EXTREME

template <typename T> inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
  std::memcpy(static_cast<void*>(&maxMinValue), &aoc::vec::reduce_register.value_bits, sizeof(T));
  maxMinIndex = aoc::vec::index_bits<T>(aoc::vec::reduce_register.index);
}
template <typename T> inline void GetReduceMaxMinCount(T& maxMinValue) {
  std::memcpy(static_cast<void*>(&maxMinValue), &aoc::vec::reduce_register.value_bits, sizeof(T));
}

// ---------------- one result per repeat ----------------
#define AOC_VEC_WHOLE_REDUCE(NAME, KIND, ORDER_PARAM, ORDER)                                                         \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                      \
                   const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,                  \
                   const int32_t srcRepStride ORDER_PARAM, AOC_VEC_LOC) {                                            \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it =                                                                                        \
        aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);               \
    aoc::vec::reduce_per_repeat(aoc::vec::Call{#NAME, loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride), \
                                KIND, ORDER, dst, src, dstRepStride);                                                \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,                         \
                   const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,                  \
                   const int32_t srcRepStride ORDER_PARAM, AOC_VEC_LOC) {                                            \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it = aoc::vec::level0(                                                                      \
        aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, isSetMask);      \
    aoc::vec::reduce_per_repeat(aoc::vec::Call{#NAME, loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride), \
                                KIND, ORDER, dst, src, dstRepStride);                                                \
  }
#define AOC_VEC_COMMA ,
AOC_VEC_WHOLE_REDUCE(WholeReduceSum, aoc::vec::Kind::Sum, , ReduceOrder::ORDER_ONLY_VALUE)
AOC_VEC_WHOLE_REDUCE(WholeReduceMax, aoc::vec::Kind::Max,
                     AOC_VEC_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
AOC_VEC_WHOLE_REDUCE(WholeReduceMin, aoc::vec::Kind::Min,
                     AOC_VEC_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef AOC_VEC_WHOLE_REDUCE

// New name: ReduceRepeat<ReduceType::SUM | MAX | MIN>.
template <ReduceType type, typename T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceRepeat: element type must be half or float");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(),
                                             aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, isSetMask);
  const aoc::vec::Kind kind = aoc::vec::reduce_kind(type);
  aoc::vec::reduce_per_repeat(aoc::vec::Call{"ReduceRepeat", loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride),
                              kind, type == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, dst, src,
                              dstRepStride);
}
template <ReduceType type, typename T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceRepeat: element type must be half or float");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);
  const aoc::vec::Kind kind = aoc::vec::reduce_kind(type);
  aoc::vec::reduce_per_repeat(aoc::vec::Call{"ReduceRepeat", loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride),
                              kind, type == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, dst, src,
                              dstRepStride);
}

// Older form without bit masks: (repeatTime, mask, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride).
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "RepeatReduceSum: element type must be half or float");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(),
                                             aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, isSetMask);
  aoc::vec::reduce_per_repeat(aoc::vec::Call{"RepeatReduceSum", loc}, it,
                              aoc::vec::layout<T>(it, srcBlkStride, srcRepStride), aoc::vec::Kind::Sum,
                              ReduceOrder::ORDER_ONLY_VALUE, dst, src, dstRepStride);
}

// ---------------- per block / per pair: (repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride) ----------------
#define AOC_VEC_GROUP_REDUCE(NAME, KIND, GROUP)                                                                      \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,                   \
                   const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,                    \
                   const int32_t srcRepStride, AOC_VEC_LOC) {                                                        \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it =                                                                                        \
        aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);               \
    aoc::vec::reduce_groups(aoc::vec::Call{#NAME, loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride),     \
                            KIND, GROUP, dst, src, dstRepStride);                                                    \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,                   \
                   const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,                       \
                   const int32_t srcRepStride, AOC_VEC_LOC) {                                                        \
    static_assert(aoc::vec::reduce_type<T>, #NAME ": element type must be half or float");                          \
    const aoc::vec::Iter it = aoc::vec::level0(                                                                      \
        aoc::vec::lanes_of<T>(), aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, isSetMask);      \
    aoc::vec::reduce_groups(aoc::vec::Call{#NAME, loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride),     \
                            KIND, GROUP, dst, src, dstRepStride);                                                    \
  }
AOC_VEC_GROUP_REDUCE(BlockReduceSum, aoc::vec::Kind::Sum, aoc::vec::lanes_of<T>() / 8)
AOC_VEC_GROUP_REDUCE(BlockReduceMax, aoc::vec::Kind::Max, aoc::vec::lanes_of<T>() / 8)
AOC_VEC_GROUP_REDUCE(BlockReduceMin, aoc::vec::Kind::Min, aoc::vec::lanes_of<T>() / 8)
AOC_VEC_GROUP_REDUCE(PairReduceSum, aoc::vec::Kind::Sum, 2)
AOC_VEC_GROUP_REDUCE(ReducePairElem, aoc::vec::Kind::Sum, 2)
#undef AOC_VEC_GROUP_REDUCE

// New name of BlockReduceSum/Max/Min; note the order of its arguments: the mask comes before the
// repeat count (the reverse of BlockReduceSum's).
template <ReduceType type, typename T, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceDataBlock: element type must be half or float");
  const aoc::vec::Iter it = aoc::vec::level0(aoc::vec::lanes_of<T>(),
                                             aoc::vec::MaskArg::count(uint64_t(std::max(mask, 0))), repeatTime, isSetMask);
  aoc::vec::reduce_groups(aoc::vec::Call{"ReduceDataBlock", loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride),
                          aoc::vec::reduce_kind(type), aoc::vec::lanes_of<T>() / 8, dst, src, dstRepStride);
}
template <ReduceType type, typename T, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, AOC_VEC_LOC) {
  static_assert(aoc::vec::reduce_type<T>, "ReduceDataBlock: element type must be half or float");
  const aoc::vec::Iter it =
      aoc::vec::level0(aoc::vec::lanes_of<T>(), aoc::vec::mask_arg<T>(mask), repeatTime, isSetMask);
  aoc::vec::reduce_groups(aoc::vec::Call{"ReduceDataBlock", loc}, it, aoc::vec::layout<T>(it, srcBlkStride, srcRepStride),
                          aoc::vec::reduce_kind(type), aoc::vec::lanes_of<T>() / 8, dst, src, dstRepStride);
}

}  // namespace AscendC
