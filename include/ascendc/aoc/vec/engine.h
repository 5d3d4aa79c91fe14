// The shared iteration engine of every vector instruction: repeats x 8 DataBlocks x
// lanes per block, selected by the mask register, with per-operand block and repeat
// strides. Also the one place that validates operands and writes the trace record,
// so per-op code only supplies what a lane computes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <source_location>
#include <type_traits>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/instrumentation.h"
#include "aoc/tensor.h"
#include "aoc/trace.h"
#include "aoc/vec/mask.h"

namespace aoc::vec {

// Which lanes of which repeats an instruction executes.
struct Iter {
  uint32_t lanes = 0;    // lanes per repeat = 256 B / widest element
  uint32_t repeats = 0;  // repeats executed
  bool counter = false;  // counter mode: the first `count` elements overall are enabled
  uint64_t count = 0;
  uint64_t mask_hi = 0, mask_lo = 0;  // normal mode: lane bits, same for every repeat

  AOC_FORCE_INLINE bool enabled(uint32_t r, uint32_t lane) const {
    if (counter) return uint64_t(r) * lanes + lane < count;
    return lane < 64 ? ((mask_lo >> lane) & 1u) : ((mask_hi >> (lane - 64)) & 1u);
  }
  AOC_FORCE_INLINE uint32_t lanes_in(uint32_t r) const {  // lanes to scan in repeat r (counter mode stops early)
    if (!counter) return lanes;
    const uint64_t done = uint64_t(r) * lanes;
    const uint64_t left = done < count ? count - done : 0;
    return static_cast<uint32_t>(left < lanes ? left : lanes);
  }
  // True when the enabled lanes are the first n of the lane order (r * lanes + l): counter mode,
  // or every lane on in normal mode. Sets n.
  AOC_FORCE_INLINE bool dense_prefix(uint64_t& n) const {
    const uint64_t all = uint64_t(repeats) * lanes;
    if (counter) {
      n = count < all ? count : all;
      return true;
    }
    if (lanes > 128) return false;
    const uint64_t lo = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    const uint64_t hi = lanes == 128 ? ~0ull : lanes > 64 ? (1ull << (lanes - 64)) - 1 : 0;
    if (mask_lo != lo || mask_hi != hi) return false;
    n = all;
    return true;
  }
  AOC_API_UNCOUNTED uint64_t enabled_lanes() const {
    if (counter) return count < uint64_t(repeats) * lanes ? count : uint64_t(repeats) * lanes;
    uint64_t per = 0;
    for (uint32_t l = 0; l < lanes; ++l) per += enabled(0, l) ? 1 : 0;
    return per * repeats;
  }
};

template <typename F> AOC_API_UNCOUNTED void for_each_lane(const Iter& it, F&& f) {
  for (uint32_t r = 0; r < it.repeats; ++r) {
    const uint32_t n = it.lanes_in(r);
    for (uint32_t l = 0; l < n; ++l)
      if (it.enabled(r, l)) f(r, l);
  }
}

// for_each_lane when the enabled lanes are the first n (Iter::dense_prefix): the same lanes in the
// same order, f(r, l, r * lanes + l), without the per-lane mask test.
template <typename F> AOC_API_UNCOUNTED void for_each_dense_lane(uint32_t lanes, uint64_t n, F&& f) {
  uint32_t r = 0;
  for (uint64_t base = 0; base < n; base += lanes, ++r) {
    const uint32_t m = n - base < lanes ? static_cast<uint32_t>(n - base) : lanes;
    for (uint32_t l = 0; l < m; ++l) f(r, l, base + l);
  }
}

// Where lane (r, l) of one operand lives, in elements from the tensor start. A block
// holds lanes/8 elements of the operand: 32 B for the widest type of the instruction,
// less for a narrower operand of a Cast (its block stride then counts those smaller
// blocks, so stride 1 stays contiguous). The repeat stride is always in 32 B units.
struct Layout {
  uint32_t blk_lanes = 0;
  uint64_t blk_step = 0;  // elements between consecutive blocks of a repeat
  uint64_t rep_step = 0;  // elements between consecutive repeats
  uint64_t lane_step = 1; // 0 broadcasts one element over a block (Brcb)
  AOC_FORCE_INLINE uint64_t index(uint32_t r, uint32_t l) const {
    return uint64_t(r) * rep_step + uint64_t(l / blk_lanes) * blk_step + (l % blk_lanes) * lane_step;
  }
  // index(r, l) == r * lanes + l for every lane: the operand's elements in lane order.
  AOC_FORCE_INLINE bool contiguous(uint32_t lanes) const {
    return lane_step == 1 && blk_step == blk_lanes && rep_step == lanes;
  }
};
template <typename T> Layout layout(const Iter& it, uint64_t blkStride, uint64_t repStride) {
  Layout lay;
  lay.blk_lanes = it.lanes / 8;
  lay.blk_step = blkStride * lay.blk_lanes;
  lay.rep_step = repStride * (32 / sizeof(T));
  return lay;
}
// Contiguous layout of the count form.
template <typename T> Layout dense(const Iter& it) { return layout<T>(it, 1, it.lanes * sizeof(T) / 32); }

struct Span {
  uint64_t lo = std::numeric_limits<uint64_t>::max();
  uint64_t hi = 0;  // exclusive
  bool empty() const { return hi == 0; }
  AOC_FORCE_INLINE void add(uint64_t i) {
    lo = i < lo ? i : lo;
    hi = i + 1 > hi ? i + 1 : hi;
  }
  void add_range(uint64_t first, uint64_t n) {
    if (n == 0) return;
    add(first);
    add(first + n - 1);
  }
};

// The elements an operand's enabled lanes touch, found from at most three repeats instead
// of every lane: index(r, l) = r * rep_step + (a part that depends on l only), rep_step >= 0,
// and the lanes a repeat enables never grow with r (the same mask every repeat; in counter
// mode full repeats, then one partial one). So the lowest index is in repeat 0 and the
// highest in the last repeat or, when that one is partial, in the last full one.
AOC_API_UNCOUNTED inline Span touched(const Iter& it, const Layout& lay) {
  Span s;
  if (it.repeats == 0 || it.lanes == 0) return s;
  uint32_t last = it.repeats - 1;
  if (it.counter) {
    const uint64_t used = (it.count + it.lanes - 1) / it.lanes;  // repeats with an enabled lane
    if (used == 0) return s;
    last = static_cast<uint32_t>(used - 1 < last ? used - 1 : last);
  }
  auto add_repeat = [&](uint32_t r) AOC_LANE {
    const uint32_t n = it.lanes_in(r);
    for (uint32_t l = 0; l < n; ++l)
      if (it.enabled(r, l)) s.add(lay.index(r, l));
  };
  add_repeat(0);
  if (last == 0) return s;
  add_repeat(last);
  if (it.counter && it.lanes_in(last) < it.lanes) add_repeat(last - 1);
  return s;
}

// Iteration of a level-0 call. isSetMask writes the mask argument into the register
// first; otherwise the register as set by SetVectorMask is used.
inline Iter level0(uint32_t lanes, const MaskArg& m, uint32_t repeatTime, bool isSetMask) {
  if (isSetMask) load_mask(m, lanes);
  const CoreState& c = core();
  Iter it;
  it.lanes = lanes;
  if (c.mask_mode == MaskMode::COUNTER) {
    it.counter = true;
    it.count = c.mask_low;
    it.repeats = static_cast<uint32_t>((it.count + lanes - 1) / lanes);  // repeatTime is ignored
    return it;
  }
  it.mask_lo = lanes >= 64 ? c.mask_low : (c.mask_low & ((1ull << lanes) - 1));
  it.mask_hi = lanes > 64 ? c.mask_high : 0;
  it.repeats = (it.mask_lo | it.mask_hi) ? repeatTime : 0;
  return it;
}

// Iteration of a count-form call: counter mode over `count` elements.
inline Iter counted(uint32_t lanes, uint64_t count) {
  Iter it;
  it.lanes = lanes;
  it.counter = true;
  it.count = count;
  it.repeats = static_cast<uint32_t>((count + lanes - 1) / lanes);
  return it;
}
// A count-form call leaves the register as its epilogue does: normal mode, all lanes on.
inline void restore_after_count() {
  core().mask_mode = MaskMode::NORMAL;
  core().mask_high = core().mask_low = ~0ull;
}
inline uint64_t checked_count(int64_t count, const char* api, const std::source_location& loc) {
  aoc::check(count >= 0, api, loc, "count ", count, " is negative");
  return static_cast<uint64_t>(count);
}

// Validates one operand over the elements [s.lo, s.hi) the instruction touches:
// allocated, 32-byte aligned start in UB, inside its buffer. Returns the byte range.
template <typename T>
Range check_operand(const AscendC::LocalTensor<T>& t, const Span& s, const char* api, const std::source_location& loc,
                    const char* role) {
  t.aoc_check(0, 0, api, loc);
  aoc::check(t.aoc_offset() % 32 == 0, api, loc, role, " operand starts at ", space_name(t.aoc_space()), " address ",
             t.aoc_offset(), ", which is not 32-byte aligned");
  if (s.empty()) return Range{t.aoc_space(), t.aoc_offset(), t.aoc_offset()};
  t.aoc_check(s.lo, s.hi - s.lo, api, loc);
  return t.aoc_range(s.lo, s.hi - s.lo);
}

// The trace record of one vector instruction.
struct Record {
  TraceRecord* r;
  Record(const char* op, const std::source_location& loc, DType dtype, DType dst_dtype, uint64_t elems,
         uint32_t repeats)
      : r(core().trace.append(RecKind::Compute, Pipe::V, op, loc)) {
    r->dtype = dtype;
    r->dst_dtype = dst_dtype == dtype ? DType::None : dst_dtype;
    r->elems = elems;
    r->repeats = repeats;
  }
  Record& read(const Range& rg) {
    if (rg.hi > rg.lo && r->nreads < 3) r->reads[r->nreads++] = rg;
    return *this;
  }
  Record& write(const Range& rg) {
    if (rg.hi > rg.lo) {
      r->has_write = true;
      r->write = rg;
    }
    return *this;
  }
};

// One tensor operand of an element-wise instruction and its lane layout.
template <typename T> struct Operand {
  const AscendC::LocalTensor<T>* t;
  Layout lay;
};
template <typename T> Operand<T> operand(const AscendC::LocalTensor<T>& t, const Layout& lay) { return {&t, lay}; }

struct Call {
  const char* op;
  std::source_location loc;
  bool reads_dst = false;  // MulAddDst, FusedMulAdd, Axpy ... accumulate into dst
  Range extra_read{};      // one more operand read outside the lane layout (Select's mask)
};

template <typename First, typename...> struct first_type { using type = First; };

// Runs an element-wise instruction: for every enabled lane, f(dst_element&, src_elements...),
// or f(repeat, lane, dst_element&, src_elements...) when the lane position matters.
// Every operand is validated before anything is written.
template <typename F, typename TD, typename... TS>
void elementwise(const Call& call, const Iter& it, F&& f, Operand<TD> d, Operand<TS>... s) {
  const Range wr = check_operand(*d.t, touched(it, d.lay), call.op, call.loc, "dst");
  const Range rd[] = {Range{}, check_operand(*s.t, touched(it, s.lay), call.op, call.loc, "src")...};
  using TSrc = typename first_type<TS..., TD>::type;
  Record rec(call.op, call.loc, dtype_of<TSrc>(), dtype_of<TD>(), it.enabled_lanes(), it.repeats);
  for (size_t i = 1; i < sizeof(rd) / sizeof(rd[0]); ++i) rec.read(rd[i]);
  if (call.reads_dst) rec.read(wr);
  rec.read(call.extra_read);
  rec.write(wr);
  TD* dp = d.t->aoc_ptr();
  uint64_t n = 0;
  if (it.dense_prefix(n) && d.lay.contiguous(it.lanes) && (s.lay.contiguous(it.lanes) && ...)) {
    // Lane (r, l) is element r * lanes + l of every operand: the same elements in the same order.
    for_each_dense_lane(it.lanes, n, [&](uint32_t r, uint32_t l, uint64_t i) AOC_LANE {
      if constexpr (std::is_invocable_v<F&, uint32_t, uint32_t, TD&, TS&...>)
        f(r, l, dp[i], s.t->aoc_ptr()[i]...);
      else
        f(dp[i], s.t->aoc_ptr()[i]...);
    });
    return;
  }
  for_each_lane(it, [&](uint32_t r, uint32_t l) AOC_LANE {
    if constexpr (std::is_invocable_v<F&, uint32_t, uint32_t, TD&, TS&...>)
      f(r, l, dp[d.lay.index(r, l)], s.t->aoc_ptr()[s.lay.index(r, l)]...);
    else
      f(dp[d.lay.index(r, l)], s.t->aoc_ptr()[s.lay.index(r, l)]...);
  });
}

}  // namespace aoc::vec
