// DataCopyPad: unaligned GM <-> UB copies. blockLen is in bytes. GM -> UB places
// every block at a 32-byte aligned UB row: leftPadding elements, the block, then
// rightPadding elements, and the row is completed to 32 bytes with "dummy" data
// (the padding value when one is given or set by SetPadValue, else the block's first
// element). UB -> GM writes exactly blockLen bytes per block.
#pragma once
#include <cstdint>
#include <cstring>
#include <source_location>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/mem_copy_engine.h"
#include "aoc/mem_copy_params.h"
#include "aoc/tensor.h"

namespace aoc {

struct PadPlan {
  uint32_t bursts = 0;
  uint32_t block_len = 0;   // bytes of data per block
  uint64_t src_stride = 0;  // GM gap, bytes
  uint64_t dst_stride = 0;  // UB gap, 32 B blocks
  uint32_t left = 0;        // padding elements
  uint32_t right = 0;
  bool has_value = false;   // isPad: the caller's padding value
};

template <typename T> T pad_register_value() {
  T v{};
  std::memcpy(static_cast<void*>(&v), &core().pad_value, sizeof(T) < sizeof(uint64_t) ? sizeof(T) : sizeof(uint64_t));
  return v;
}

template <typename T>
void pad_gm_to_ub(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, const PadPlan& p,
                  T value, const std::source_location& loc) {
  const char* api = "DataCopyPad";
  constexpr uint32_t sz = sizeof(T);
  check(dst.aoc_space() == Space::UB, api, loc, "GM -> ", space_name(dst.aoc_space()),
        " is not a DataCopyPad path (GM -> VECIN/VECOUT only)");
  check_local_aligned(dst, api, loc);
  check(p.block_len % sz == 0, api, loc, "blockLen ", p.block_len, " B is not a multiple of the element size ", sz);
  check(p.left * sz <= 32 && p.right * sz <= 32, api, loc, "leftPadding ", p.left, " / rightPadding ", p.right,
        " elements exceed 32 bytes");
  const uint64_t row = uint64_t(p.left + p.right) * sz + p.block_len;
  const uint64_t row_aligned = (row + 31) / 32 * 32;
  BlockPlan plan;
  plan.bursts = p.bursts;
  plan.burst_bytes = p.block_len;
  plan.src_pitch = p.block_len + p.src_stride;
  plan.dst_pitch = row_aligned + p.dst_stride * 32;
  const auto d = bytes_of(dst);
  const auto s = bytes_of(src);
  if (!plan.empty()) {
    check_blocks(s, plan.bursts, plan.src_pitch, p.block_len, api, loc);
    check_blocks(d, plan.bursts, plan.dst_pitch, row_aligned, api, loc);
    const bool have_register = core().pad_value_set;
    const T pad = p.has_value ? value : pad_register_value<T>();
    const uint32_t data_elems = p.block_len / sz;
    const uint32_t row_elems = static_cast<uint32_t>(row_aligned / sz);
    for (uint32_t b = 0; b < p.bursts; ++b) {
      T* out = reinterpret_cast<T*>(d.aoc_ptr() + b * plan.dst_pitch);
      const uint8_t* in = s.aoc_ptr() + b * plan.src_pitch;
      T first{};
      std::memcpy(static_cast<void*>(&first), in, sz);
      const bool padded = p.left != 0 || p.right != 0;
      const T dummy = (p.has_value || have_register || padded) ? pad : first;
      uint32_t k = 0;
      for (; k < p.left; ++k) out[k] = pad;
      std::memcpy(static_cast<void*>(out + k), in, p.block_len);
      k += data_elems;
      for (uint32_t r = 0; r < p.right; ++r, ++k) out[k] = pad;
      for (; k < row_elems; ++k) out[k] = dummy;
    }
  }
  TraceRecord* r = record_copy(api, Pipe::MTE2, dtype_of<T>(), plan, s.aoc_range(0, plan.src_span()),
                               d.aoc_range(0, plan.empty() ? 0 : (plan.bursts - 1) * plan.dst_pitch + row_aligned), loc);
  r->dst_gap = plan.empty() ? 0 : plan.dst_pitch - p.block_len;
}

template <typename T>
void pad_ub_to_gm(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t bursts,
                  uint32_t block_len, uint64_t src_stride_blocks, uint64_t dst_stride_bytes,
                  const std::source_location& loc) {
  const char* api = "DataCopyPad";
  check(src.aoc_space() == Space::UB, api, loc, space_name(src.aoc_space()),
        " -> GM is not a DataCopyPad path (VECIN/VECOUT -> GM only)");
  check(block_len % sizeof(T) == 0, api, loc, "blockLen ", block_len, " B is not a multiple of the element size ",
        sizeof(T));
  BlockPlan plan;
  plan.bursts = bursts;
  plan.burst_bytes = block_len;
  plan.src_pitch = (uint64_t(block_len) + 31) / 32 * 32 + src_stride_blocks * 32;
  plan.dst_pitch = block_len + dst_stride_bytes;
  move_local_to_gm(api, Pipe::MTE3, dst, src, plan, loc);
}

}  // namespace aoc

namespace AscendC {

// Sets the value DataCopyPad writes into padding and dummy bytes (GM -> VECIN/VECOUT).
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
  aoc::CoreState& c = aoc::core();
  c.pad_value = 0;
  std::memcpy(&c.pad_value, &paddingValue, sizeof(T) < sizeof(uint64_t) ? sizeof(T) : sizeof(uint64_t));
  c.pad_value_set = true;
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params,
                        const DataCopyPadExtParams<T>& padParams,
                        std::source_location loc = std::source_location::current()) {
  aoc::PadPlan p{params.blockCount, params.blockLen, params.srcStride, params.dstStride,
                 padParams.leftPadding, padParams.rightPadding, padParams.isPad};
  aoc::pad_gm_to_ub(dst, src, p, padParams.paddingValue, loc);
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
                        const DataCopyPadParams& padParams,
                        std::source_location loc = std::source_location::current()) {
  aoc::PadPlan p{params.blockCount, params.blockLen, params.srcStride, params.dstStride,
                 padParams.leftPadding, padParams.rightPadding, padParams.isPad};
  aoc::pad_gm_to_ub(dst, src, p, static_cast<T>(padParams.paddingValue), loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params,
                        std::source_location loc = std::source_location::current()) {
  aoc::pad_ub_to_gm(dst, src, params.blockCount, params.blockLen, params.srcStride, params.dstStride, loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
                        std::source_location loc = std::source_location::current()) {
  aoc::pad_ub_to_gm(dst, src, params.blockCount, params.blockLen, params.srcStride, params.dstStride, loc);
}

}  // namespace AscendC
