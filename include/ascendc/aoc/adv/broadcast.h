// Broadcast (and its older name BroadCast): a 1-D or 2-D tensor in UB expanded along one axis to
// a dense destination shape. [1] -> [n]; [1, k] -> [m, k] (axis 0, the row repeated); [m, 1] ->
// [m, k] (axis 1, each element repeated along its row). The device runs it on the vector unit as
// Brcb (each element to a 32 B block), Copy (blocks repeated to the row length) and, for rows that
// are not whole blocks, a GatherMask that packs the rows densely; that sequence is what is traced.
// The destination may be the source itself (kernels broadcast gamma in place).
#pragma once
#include <cstring>
#include <vector>

#include "aoc/adv/common.h"

namespace aoc::adv {

// dst[r][c] = src[r] (along rows) or src[c] (a row repeated; src has one element for 1-D).
template <typename T>
AOC_API_UNCOUNTED void broadcast_values(T* dst, const T* src, uint32_t rows, uint32_t cols, uint64_t srcN,
                                        bool alongRows) {
  std::vector<T> in(src, src + srcN);  // the destination may overlap the source
  const T* v = in.data();
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) dst[uint64_t(r) * cols + c] = alongRows ? v[r] : v[srcN == 1 ? 0 : c];
}

template <typename T, int32_t dim, int32_t axis>
inline void broadcast_run(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const uint32_t* dstShape,
                          const uint32_t* srcShape, const AscendC::LocalTensor<uint8_t>* tmp,
                          const std::source_location& loc) {
  static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1");
  static_assert(dim == 2 || axis == 0, "Broadcast: a 1-D broadcast has only axis 0");
  const char* api = "Broadcast";
  const uint32_t rows = dim == 2 ? dstShape[0] : 1, cols = dim == 2 ? dstShape[1] : dstShape[0];
  const uint32_t srcRows = dim == 2 ? srcShape[0] : 1, srcCols = dim == 2 ? srcShape[1] : srcShape[0];
  const bool alongRows = dim == 2 && axis == 1;  // [m, 1] -> [m, k]
  if (alongRows) {
    check(srcCols == 1 && srcRows == rows, api, loc, "axis 1 takes srcShape [m, 1] to dstShape [m, k]; got [", srcRows,
          ", ", srcCols, "] to [", rows, ", ", cols, "]");
  } else {
    check(srcRows == 1 && srcCols == (dim == 2 ? cols : 1u), api, loc, "axis 0 takes srcShape ",
          dim == 2 ? "[1, k] to dstShape [m, k]" : "[1] to dstShape [n]", "; got srcShape [", srcRows, ", ", srcCols,
          "] and dstShape [", rows, ", ", cols, "]");
  }
  const uint64_t n = uint64_t(rows) * cols, srcN = uint64_t(srcRows) * srcCols;
  check(n != 0, api, loc, "dstShape is empty");
  check_operand(src, srcN, api, "srcLocal", loc);
  check_operand(dst, n, api, "dstLocal", loc);
  constexpr uint32_t blockElems = kBlockBytes / sizeof(T);
  const TmpRange need = alongRows ? TmpRange{0, uint32_t(align_up(rows, 8) * kBlockBytes)} : TmpRange{};
  const Scratch s = resolve_scratch(tmp, need, api, loc);

  broadcast_values(dst.aoc_ptr(), src.aoc_ptr(), rows, cols, srcN, alongRows);

  VecTrace tr(loc);
  const DType dt = dtype_of<T>();
  const uint64_t alignedCols = align_up(cols, blockElems);
  if (alongRows) {
    const Range blocks = s.bytes != 0 ? s.range : dst.aoc_range(0, std::min<uint64_t>(n, uint64_t(rows) * blockElems));
    tr.op("Brcb", dt, uint64_t(rows) * blockElems, {src.aoc_range(0, srcN)}, blocks);
    tr.op("Copy", dt, uint64_t(rows) * alignedCols, {blocks}, dst.aoc_range(0, n));
  } else {
    tr.op("Copy", dt, uint64_t(rows) * alignedCols, {src.aoc_range(0, srcN)}, dst.aoc_range(0, n));
  }
  if (alignedCols != cols && rows > 1) tr.op("GatherMask", dt, n, {dst.aoc_range(0, n)}, dst.aoc_range(0, n));
}

}  // namespace aoc::adv

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer,
                      std::source_location loc = std::source_location::current()) {
  aoc::adv::broadcast_run<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], std::source_location loc = std::source_location::current()) {
  aoc::adv::broadcast_run<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}
// The name of CANN releases before the rename.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer,
                      std::source_location loc = std::source_location::current()) {
  aoc::adv::broadcast_run<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], std::source_location loc = std::source_location::current()) {
  aoc::adv::broadcast_run<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}

}  // namespace AscendC
