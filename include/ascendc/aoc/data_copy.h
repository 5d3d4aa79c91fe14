// DataCopy between GM and local memories and between local memories. As on the
// device, the count form moves count * sizeof(T) rounded DOWN to whole 32-byte
// blocks (an unaligned tail is silently not copied), and the DataCopyParams form
// moves blockCount blocks of blockLen 32-byte units with gaps in the same units.
#pragma once
#include <cstdint>
#include <source_location>

#include "aoc/mem_atomic.h"
#include "aoc/mem_copy_engine.h"
#include "aoc/mem_copy_pad.h"
#include "aoc/mem_copy_params.h"
#include "aoc/mem_workspace.h"
#include "aoc/tensor.h"

namespace aoc {

template <typename T>
BlockPlan contiguous_plan(uint32_t count) {
  BlockPlan p;
  p.bursts = 1;
  p.burst_bytes = uint64_t(count) * sizeof(T) / 32 * 32;
  p.src_pitch = p.dst_pitch = p.burst_bytes;
  return p;
}

inline BlockPlan strided_plan(const AscendC::DataCopyParams& q) {
  BlockPlan p;
  p.bursts = q.blockCount;
  p.burst_bytes = uint64_t(q.blockLen) * 32;
  p.src_pitch = (uint64_t(q.blockLen) + q.srcStride) * 32;
  p.dst_pitch = (uint64_t(q.blockLen) + q.dstStride) * 32;
  return p;
}

}  // namespace aoc

namespace AscendC {

// GM -> UB / L1 (MTE2).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count,
                     std::source_location loc = std::source_location::current()) {
  const aoc::Pipe pipe = aoc::gm_to_local_pipe(dst.aoc_space(), "DataCopy", loc);
  aoc::move_gm_to_local("DataCopy", pipe, dst, src, aoc::contiguous_plan<T>(count), loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
                     std::source_location loc = std::source_location::current()) {
  const aoc::Pipe pipe = aoc::gm_to_local_pipe(dst.aoc_space(), "DataCopy", loc);
  aoc::move_gm_to_local("DataCopy", pipe, dst, src, aoc::strided_plan(params), loc);
}

// UB -> GM (MTE3), accumulating when an atomic mode is set.
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     std::source_location loc = std::source_location::current()) {
  const aoc::Pipe pipe = aoc::local_to_gm_pipe(src.aoc_space(), "DataCopy", loc);
  aoc::move_local_to_gm("DataCopy", pipe, dst, src, aoc::contiguous_plan<T>(count), loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
                     std::source_location loc = std::source_location::current()) {
  const aoc::Pipe pipe = aoc::local_to_gm_pipe(src.aoc_space(), "DataCopy", loc);
  aoc::move_local_to_gm("DataCopy", pipe, dst, src, aoc::strided_plan(params), loc);
}

// UB -> UB (V), UB -> L1 (MTE3), L1 -> L0A/L0B/BT/FB (MTE1).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     std::source_location loc = std::source_location::current()) {
  const aoc::Pipe pipe = aoc::local_to_local_pipe(src.aoc_space(), dst.aoc_space(), "DataCopy", loc);
  aoc::move_local_to_local("DataCopy", pipe, dst, src, aoc::contiguous_plan<T>(count), loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
                     std::source_location loc = std::source_location::current()) {
  const aoc::Pipe pipe = aoc::local_to_local_pipe(src.aoc_space(), dst.aoc_space(), "DataCopy", loc);
  aoc::move_local_to_local("DataCopy", pipe, dst, src, aoc::strided_plan(params), loc);
}

}  // namespace AscendC
