// Shared machinery of the advanced APIs: operand validation, scratch-space resolution
// and the trace of basic vector instructions each advanced call expands into. The
// advanced APIs compute directly on tensor storage (after validation) and describe the
// device's instruction sequence through VecTrace, so the timing engine charges them the
// cost of the real expansion rather than one opaque call.
#pragma once
#include <cstdint>
#include <source_location>
#include <type_traits>

#include "aoc/adv/tmp_size.h"
#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/half.h"
#include "aoc/pipe.h"
#include "aoc/tensor.h"
#include "aoc/trace.h"


namespace aoc::adv {

template <typename T> constexpr bool is_16bit_float = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

inline uint32_t dtype_bytes(DType d) {
  switch (d) {
    case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 2;
    case DType::F32: case DType::I32: case DType::U32: return 4;
    case DType::F64: case DType::I64: case DType::U64: return 8;
    default: return 1;
  }
}

// Values are read as float and results rounded once to T, as the vector unit does when
// an API up-casts 16-bit inputs to float for its intermediate steps.
// Both run per element, inside the uncounted loops (aoc/instrumentation.h).
template <typename T> AOC_FORCE_INLINE float ld(const T& v) { return static_cast<float>(v); }
template <typename T> AOC_FORCE_INLINE T st(float v) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(v);
  else return T(v);
}

// Appends the basic vector instructions an advanced API issues.
class VecTrace {
 public:
  explicit VecTrace(const std::source_location& loc) : loc_(loc) {}

  // One instruction over `elems` elements of `dt`, reading up to three ranges, writing one.
  void op(const char* name, DType dt, uint64_t elems, std::initializer_list<Range> reads, const Range& write,
          DType dstDt = DType::None) {
    TraceRecord* r = core().trace.append(RecKind::Compute, Pipe::V, name, loc_);
    r->dtype = dt;
    r->dst_dtype = dstDt;
    r->elems = elems;
    const uint64_t bytes = elems * dtype_bytes(dt);
    r->repeats = static_cast<uint32_t>((bytes + kRepeatBytes - 1) / kRepeatBytes);
    uint8_t n = 0;
    for (const Range& rg : reads) {
      if (n < 3) r->reads[n++] = rg;
    }
    r->nreads = n;
    r->has_write = true;
    r->write = write;
  }

 private:
  const std::source_location& loc_;
};

// Checks that elements [0, n) of a tensor may be touched and that it starts 32 B aligned.
template <typename T>
inline void check_operand(const AscendC::LocalTensor<T>& t, uint64_t n, const char* api, const char* role,
                          const std::source_location& loc) {
  t.aoc_check(0, n, api, loc);
  check(t.aoc_space() == Space::UB, api, loc, role, " must be in UB (VECIN/VECOUT/VECCALC)");
  check(t.GetPhyAddr() % kBlockBytes == 0, api, loc, role, " address ", t.GetPhyAddr(),
        " is not 32-byte aligned");
}

// The scratch region an API call uses: the caller's sharedTmpBuffer, or the UB left
// after the TPipe's allocations.
struct Scratch {
  Range range;
  uint32_t bytes = 0;
};

inline Scratch resolve_scratch(const AscendC::LocalTensor<uint8_t>* tmp, TmpRange need, const char* api,
                               const std::source_location& loc) {
  Scratch s;
  if (need.max == 0) return s;
  if (tmp != nullptr) {
    const uint32_t have = tmp->GetSize();
    check(have >= need.min, api, loc, "sharedTmpBuffer has ", have, " bytes but at least ", need.min,
          " bytes are required (see the host-side Get*MaxMinTmpSize)");
    check_operand(*tmp, have, api, "sharedTmpBuffer", loc);
    s.bytes = std::min(have, need.max);
    s.range = tmp->aoc_range(0, s.bytes);
    return s;
  }
  const uint32_t total = core().limits.ub_bytes;
  const uint32_t used = static_cast<uint32_t>(align_up(ub_bytes_in_use(), kBlockBytes));
  const uint32_t free = used < total ? total - used : 0;
  check(free >= need.min, api, loc, "needs at least ", need.min, " bytes of temporary UB space but only ", free,
        " bytes are left after the TPipe's ", used,
        " bytes of buffers; reserve space or pass a sharedTmpBuffer");
  s.bytes = std::min(free, need.max);
  s.range = Range{Space::UB, used, uint64_t(used) + s.bytes};
  return s;
}

// A sub-range of `r` holding `bytes` bytes starting `offset` bytes in, clipped to r.
inline Range sub_range(const Range& r, uint64_t offset, uint64_t bytes) {
  Range o = r;
  o.lo = std::min(r.hi, r.lo + offset);
  o.hi = std::min(r.hi, o.lo + bytes);
  return o;
}

}  // namespace aoc::adv
