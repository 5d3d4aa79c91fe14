// RmsNorm over the last axis of [B, S, H]: y = x / sqrt(mean(x^2) + eps) * gamma, the mean
// taken over the original (unpadded) H in float. Padded columns are written as 0.
#pragma once

#include "aoc/math_fn.h"
#include "aoc/adv/norm_trace.h"
#include "aoc/adv/tiling_calc.h"

namespace aoc::adv {

// y = x / sqrt(mean(x^2) + eps) * gamma per row of `len` of each `stride`; the padding is 0.
template <typename T>
AOC_API_UNCOUNTED void rmsnorm_rows(T* dst, const T* src, const T* gamma, uint32_t rows, uint32_t len, uint32_t stride,
                                    float eps) {
  std::vector<float> buf(len);
  float* row = buf.data();  // not the vector's operator[]: a library call per element here
  for (uint32_t r = 0; r < rows; ++r) {
    const T* xr = src + uint64_t(r) * stride;
    float sq = 0;
    for (uint32_t c = 0; c < len; ++c) {
      row[c] = ld(xr[c]);
      sq += row[c] * row[c];
    }
    const float scale = 1.0f / aoc::fn::sqrt(sq / float(len) + eps);
    T* yr = dst + uint64_t(r) * stride;
    for (uint32_t c = 0; c < len; ++c) yr[c] = st<T>(row[c] * scale * ld(gamma[c]));
    for (uint32_t c = len; c < stride; ++c) yr[c] = st<T>(0.0f);
  }
}

template <typename T>
inline void rmsnorm_run(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>* tmp, float eps,
                        const AscendC::RmsNormTiling& t, const std::source_location& loc) {
  const char* api = "RmsNorm";
  const uint32_t rows = t.bLength * t.sLength, stride = t.hLength;
  const uint32_t len = t.originalHLength != 0 ? t.originalHLength : t.hLength;
  check(rows != 0 && stride != 0, api, loc, "shape is empty (tiling not filled?)");
  check(len <= stride, api, loc, "originalHLength ", len, " exceeds hLength ", stride);
  check(uint64_t(stride) * sizeof(T) % kBlockBytes == 0, api, loc, "hLength ", stride,
        " must make each row a multiple of 32 bytes");
  const uint64_t n = uint64_t(rows) * stride;
  check_operand(src, n, api, "srcLocal", loc);
  check_operand(dst, n, api, "dstLocal", loc);
  check_operand(gamma, len, api, "gammaLocal", loc);
  const Scratch s = resolve_scratch(tmp, rowwise_tmp(rows, stride, bufs::RmsNorm), api, loc);

  rmsnorm_rows(dst.aoc_ptr(), src.aoc_ptr(), gamma.aoc_ptr(), rows, len, stride, eps);

  VecTrace tr(loc);
  const std::vector<NormStep> steps{{"Mul", true, 0},    {"ReduceSum", true, 0}, {"Muls", false, 0},
                                    {"Adds", false, 0},  {"Rsqrt", false, 0},    {"Brcb", false, 0},
                                    {"Mul", true, 0},    {"Mul", true, 'g'}};
  const uint32_t rowsPerPass = rows_per_pass(rows, stride, s.bytes, bufs::RmsNorm, 0);
  for (uint32_t r0 = 0; r0 < rows; r0 += rowsPerPass) {
    const uint32_t pr = std::min(rowsPerPass, rows - r0);
    const uint64_t pn = uint64_t(pr) * stride;
    NormRanges nr;
    nr.gamma = gamma.aoc_range(0, len);
    trace_norm_pass(tr, steps, dtype_of<T>(), is_16bit_float<T>, pn, pr, src.aoc_range(uint64_t(r0) * stride, pn),
                    dst.aoc_range(uint64_t(r0) * stride, pn), s, nr);
  }
}

}  // namespace aoc::adv

namespace AscendC {

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
                    std::source_location loc = std::source_location::current()) {
  aoc::adv::rmsnorm_run<T>(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, aoc::adv::ld(epsilon), tiling, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling,
                    std::source_location loc = std::source_location::current()) {
  aoc::adv::rmsnorm_run<T>(dstLocal, srcLocal, gammaLocal, nullptr, aoc::adv::ld(epsilon), tiling, loc);
}

}  // namespace AscendC
