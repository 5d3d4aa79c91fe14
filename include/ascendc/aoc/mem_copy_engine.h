// The byte-level core shared by DataCopy and DataCopyPad: a copy is `bursts` blocks
// of `burst_bytes`, the n-th block read at n * src_pitch and written at
// n * dst_pitch (bytes from each tensor's start). Every byte is bounds-checked
// before anything is written, writes to GM honour the core's atomic mode, and one
// Copy trace record describes the whole instruction.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <source_location>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/half.h"
#include "aoc/tensor.h"
#include "aoc/trace.h"

namespace aoc {

struct BlockPlan {
  uint32_t bursts = 0;
  uint64_t burst_bytes = 0;
  uint64_t src_pitch = 0;  // bytes from the start of one source block to the next
  uint64_t dst_pitch = 0;
  bool empty() const { return bursts == 0 || burst_bytes == 0; }
  uint64_t src_span() const { return empty() ? 0 : (bursts - 1) * src_pitch + burst_bytes; }
  uint64_t dst_span() const { return empty() ? 0 : (bursts - 1) * dst_pitch + burst_bytes; }
};

// Byte views keep the buffer bounds and the freed-buffer detection of the typed tensor.
template <typename T> AscendC::LocalTensor<uint8_t> bytes_of(const AscendC::LocalTensor<T>& t) {
  return t.template ReinterpretCast<uint8_t>();
}
template <typename T> AscendC::GlobalTensor<uint8_t> bytes_of(const AscendC::GlobalTensor<T>& t) {
  return t.template ReinterpretCast<uint8_t>();
}

template <typename T>
void check_local_aligned(const AscendC::LocalTensor<T>& t, const char* api, const std::source_location& loc) {
  t.aoc_check(0, 0, api, loc);  // a freed or never-allocated tensor is reported as such first
  const uint64_t addr = t.aoc_offset();
  check(addr % 32 == 0, api, loc, space_name(t.aoc_space()), " address ", addr,
        " is not 32-byte aligned (local operands of data movement must start on a 32 B boundary)");
}

template <typename View>
void check_blocks(const View& v, uint32_t bursts, uint64_t pitch, uint64_t block, const char* api,
                  const std::source_location& loc) {
  for (uint32_t i = 0; i < bursts; ++i) v.aoc_check(uint64_t(i) * pitch, block, api, loc);
}

// ---- GM stores under the atomic mode of the core (SetAtomicAdd / Max / Min) ----

inline std::mutex& gm_atomic_mutex() {
  static std::mutex m;
  return m;
}

template <typename U>
void accumulate(std::byte* dst, const std::byte* src, uint64_t n, uint8_t mode) {
  const uint64_t count = n / sizeof(U);
  for (uint64_t i = 0; i < count; ++i) {
    U a, b;
    std::memcpy(static_cast<void*>(&a), dst + i * sizeof(U), sizeof(U));
    std::memcpy(static_cast<void*>(&b), src + i * sizeof(U), sizeof(U));
    U r;
    if (mode == 1) {
      r = static_cast<U>(a + b);
    } else if (mode == 2) {
      r = b > a ? b : a;
    } else {
      r = b < a ? b : a;
    }
    std::memcpy(dst + i * sizeof(U), &r, sizeof(U));
  }
  const uint64_t tail = n - count * sizeof(U);
  if (tail) std::memcpy(dst + count * sizeof(U), src + count * sizeof(U), tail);
}

inline void gm_store(std::byte* dst, const std::byte* src, uint64_t n) {
  const CoreState& c = core();
  if (c.atomic_mode == 0) {
    std::memcpy(dst, src, n);
    return;
  }
  // Other cores may accumulate into the same bytes concurrently.
  std::lock_guard<std::mutex> g(gm_atomic_mutex());
  switch (static_cast<DType>(c.atomic_dtype)) {
    case DType::F32: return accumulate<float>(dst, src, n, c.atomic_mode);
    case DType::F16: return accumulate<half>(dst, src, n, c.atomic_mode);
    case DType::BF16: return accumulate<bfloat16_t>(dst, src, n, c.atomic_mode);
    case DType::I32: return accumulate<int32_t>(dst, src, n, c.atomic_mode);
    case DType::I16: return accumulate<int16_t>(dst, src, n, c.atomic_mode);
    case DType::I8: return accumulate<int8_t>(dst, src, n, c.atomic_mode);
    default: std::memcpy(dst, src, n);
  }
}

// ---- trace ----

inline TraceRecord* record_copy(const char* op, Pipe pipe, DType dt, const BlockPlan& p, Range read, Range write,
                                const std::source_location& loc) {
  TraceRecord* r = core().trace.append(RecKind::Copy, pipe, op, loc);
  r->dtype = dt;
  r->bursts = p.empty() ? 0 : p.bursts;
  r->burst_bytes = p.empty() ? 0 : static_cast<uint32_t>(p.burst_bytes);
  r->bytes = p.empty() ? 0 : uint64_t(p.bursts) * p.burst_bytes;
  r->src_gap = p.src_pitch > p.burst_bytes ? p.src_pitch - p.burst_bytes : 0;
  r->dst_gap = p.dst_pitch > p.burst_bytes ? p.dst_pitch - p.burst_bytes : 0;
  if (!p.empty()) {
    r->nreads = 1;
    r->reads[0] = read;
    r->has_write = true;
    r->write = write;
  }
  return r;
}

// ---- the three directions ----

template <typename T>
void move_gm_to_local(const char* op, Pipe pipe, const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                      const BlockPlan& p, const std::source_location& loc) {
  check_local_aligned(dst, op, loc);
  if (!p.empty()) {
    const auto d = bytes_of(dst);
    const auto s = bytes_of(src);
    check_blocks(s, p.bursts, p.src_pitch, p.burst_bytes, op, loc);
    check_blocks(d, p.bursts, p.dst_pitch, p.burst_bytes, op, loc);
    for (uint32_t i = 0; i < p.bursts; ++i)
      std::memcpy(d.aoc_ptr() + i * p.dst_pitch, s.aoc_ptr() + i * p.src_pitch, p.burst_bytes);
  }
  TraceRecord* r = record_copy(op, pipe, dtype_of<T>(), p, bytes_of(src).aoc_range(0, p.src_span()),
                               bytes_of(dst).aoc_range(0, p.dst_span()), loc);
  r->cache_mode = static_cast<uint8_t>(src.GetL2CacheHint());
}

template <typename T>
void move_local_to_gm(const char* op, Pipe pipe, const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const BlockPlan& p, const std::source_location& loc) {
  check_local_aligned(src, op, loc);
  if (!p.empty()) {
    const auto d = bytes_of(dst);
    const auto s = bytes_of(src);
    check_blocks(s, p.bursts, p.src_pitch, p.burst_bytes, op, loc);
    check_blocks(d, p.bursts, p.dst_pitch, p.burst_bytes, op, loc);
    for (uint32_t i = 0; i < p.bursts; ++i)
      gm_store(reinterpret_cast<std::byte*>(d.aoc_ptr() + i * p.dst_pitch),
               reinterpret_cast<const std::byte*>(s.aoc_ptr() + i * p.src_pitch), p.burst_bytes);
  }
  TraceRecord* r = record_copy(op, pipe, dtype_of<T>(), p, bytes_of(src).aoc_range(0, p.src_span()),
                               bytes_of(dst).aoc_range(0, p.dst_span()), loc);
  r->cache_mode = static_cast<uint8_t>(dst.GetL2CacheHint());
}

template <typename T>
void move_local_to_local(const char* op, Pipe pipe, const AscendC::LocalTensor<T>& dst,
                         const AscendC::LocalTensor<T>& src, const BlockPlan& p, const std::source_location& loc) {
  check_local_aligned(src, op, loc);
  check_local_aligned(dst, op, loc);
  if (!p.empty()) {
    const auto d = bytes_of(dst);
    const auto s = bytes_of(src);
    check_blocks(s, p.bursts, p.src_pitch, p.burst_bytes, op, loc);
    check_blocks(d, p.bursts, p.dst_pitch, p.burst_bytes, op, loc);
    for (uint32_t i = 0; i < p.bursts; ++i)
      std::memmove(d.aoc_ptr() + i * p.dst_pitch, s.aoc_ptr() + i * p.src_pitch, p.burst_bytes);
  }
  record_copy(op, pipe, dtype_of<T>(), p, bytes_of(src).aoc_range(0, p.src_span()), bytes_of(dst).aoc_range(0, p.dst_span()),
              loc);
}

// ---- which pipe moves data between two memories ----

inline Pipe gm_to_local_pipe(Space dst, const char* api, const std::source_location& loc) {
  check(dst == Space::UB || dst == Space::L1, api, loc, "there is no DMA path GM -> ", space_name(dst),
        " (only GM -> UB and GM -> L1)");
  return Pipe::MTE2;
}

inline Pipe local_to_gm_pipe(Space src, const char* api, const std::source_location& loc) {
  check(src == Space::UB, api, loc, "there is no DataCopy path ", space_name(src), " -> GM",
        src == Space::L0C ? " (L0C results leave through Fixpipe)" : " (only UB -> GM)");
  return Pipe::MTE3;
}

inline Pipe local_to_local_pipe(Space src, Space dst, const char* api, const std::source_location& loc) {
  if (src == Space::UB && dst == Space::UB) return Pipe::V;
  if (src == Space::UB && dst == Space::L1) return Pipe::MTE3;
  if (src == Space::L1 && (dst == Space::L0A || dst == Space::L0B || dst == Space::BT || dst == Space::FB))
    return Pipe::MTE1;
  fail(api, loc, "there is no DataCopy path ", space_name(src), " -> ", space_name(dst));
}

}  // namespace aoc
