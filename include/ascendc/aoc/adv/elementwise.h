// Driver of the element-wise advanced APIs (activations and math functions): validates
// operands and scratch space, computes each element in float (rounded once to T), and
// traces the basic instruction sequence the device expands the call into, chunk by chunk
// as the scratch space allows.
#pragma once
#include <algorithm>
#include <vector>

#include "aoc/adv/common.h"

namespace aoc::adv {

// One element-wise call: dst[i] = fn(src0[i], src1[i]) for i < count (src1 optional).
struct ElementwiseCall {
  const char* api;
  uint32_t count;
  uint32_t f32Buffers;             // work buffers of the device implementation (tmp_size.h)
  std::vector<const char*> steps;  // basic instructions per chunk, computed in float
};

template <typename T>
inline void trace_elementwise(const ElementwiseCall& c, const AscendC::LocalTensor<T>& dst,
                              const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1,
                              const Scratch& s, const std::source_location& loc) {
  VecTrace tr(loc);
  constexpr bool up = is_16bit_float<T>;
  constexpr DType dt = dtype_of<T>();
  const DType work = std::is_floating_point_v<T> || up ? DType::F32 : dt;
  const uint32_t nbufs = work_buffers(c.f32Buffers, sizeof(T));
  // Elements per chunk: what fits in one float work buffer, a whole number of repeats.
  uint64_t chunk = c.count;
  if (nbufs > 0 && s.bytes > 0) {
    chunk = std::max<uint64_t>(kRepeatBytes / sizeof(float), s.bytes / nbufs / sizeof(float) / 64 * 64);
  }
  const uint64_t bufBytes = chunk * sizeof(float);
  for (uint64_t first = 0; first < c.count; first += chunk) {
    const uint64_t n = std::min<uint64_t>(chunk, c.count - first);
    const Range in0 = src0.aoc_range(first, n);
    const Range out = dst.aoc_range(first, n);
    const Range work0 = nbufs > 0 && s.bytes > 0 ? sub_range(s.range, 0, n * sizeof(float)) : out;
    const Range work1 = nbufs > 1 && s.bytes > 0 ? sub_range(s.range, bufBytes, n * sizeof(float)) : work0;
    Range cur = in0;
    if (up) {
      tr.op("Cast", dt, n, {in0}, work0, DType::F32);
      cur = work0;
    }
    for (size_t k = 0; k < c.steps.size(); ++k) {
      const bool last = k + 1 == c.steps.size();
      const Range w = last && !up ? out : (k % 2 == 0 ? work1 : work0);
      if (k == 0 && src1 != nullptr) tr.op(c.steps[k], work, n, {cur, src1->aoc_range(first, n)}, w);
      else tr.op(c.steps[k], work, n, {cur}, w);
      cur = w;
    }
    if (up) tr.op("Cast", DType::F32, n, {cur}, out, dt);
  }
}

// d[i] = fn(a[i], b[i] or 0), computed in float; fn is an AOC_LANE lambda.
template <typename T, typename Fn>
AOC_API_UNCOUNTED void apply_elementwise(T* d, const T* a, const T* b, uint32_t count, Fn& fn) {
  for (uint32_t i = 0; i < count; ++i) d[i] = st<T>(fn(ld(a[i]), b != nullptr ? ld(b[i]) : 0.0f));
}

template <typename T, typename Fn>
inline void run_elementwise(const ElementwiseCall& c, const AscendC::LocalTensor<T>& dst,
                            const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1,
                            const AscendC::LocalTensor<uint8_t>* tmp, Fn fn, const std::source_location& loc) {
  check_operand(src0, c.count, c.api, "srcTensor", loc);
  if (src1 != nullptr) check_operand(*src1, c.count, c.api, "srcTensor1", loc);
  check_operand(dst, c.count, c.api, "dstTensor", loc);
  const Scratch s = resolve_scratch(tmp, elementwise_tmp(c.count, sizeof(T), c.f32Buffers), c.api, loc);
  apply_elementwise(dst.aoc_ptr(), src0.aoc_ptr(), src1 != nullptr ? src1->aoc_ptr() : nullptr, c.count, fn);
  trace_elementwise(c, dst, src0, src1, s, loc);
}

}  // namespace aoc::adv

// Declares the four overloads real kernels use for a unary API with scratch space:
// (dst, src, tmp, count), (dst, src, count), (dst, src, tmp), (dst, src).
// IMPL(dst, src, tmpPtr, count, loc) does the work.
#define AOC_ADV_UNARY_OVERLOADS(Name, IMPL)                                                                     \
  template <typename T, bool isReuseSource = false>                                                             \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                           \
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,                        \
                   std::source_location loc = std::source_location::current()) {                              \
    IMPL<T>(dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);                                             \
  }                                                                                                             \
  template <typename T, bool isReuseSource = false>                                                             \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,   \
                   std::source_location loc = std::source_location::current()) {                              \
    IMPL<T>(dstTensor, srcTensor, nullptr, calCount, loc);                                                      \
  }                                                                                                             \
  template <typename T, bool isReuseSource = false>                                                             \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                           \
                   const LocalTensor<uint8_t>& sharedTmpBuffer,                                                 \
                   std::source_location loc = std::source_location::current()) {                              \
    IMPL<T>(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize(), loc);                                  \
  }                                                                                                             \
  template <typename T, bool isReuseSource = false>                                                             \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                           \
                   std::source_location loc = std::source_location::current()) {                              \
    IMPL<T>(dstTensor, srcTensor, nullptr, srcTensor.GetSize(), loc);                                           \
  }
