// The softmax family of the advanced API. Each has a form with sharedTmpBuffer and one
// taking scratch from the UB the TPipe left free. Reduced outputs (sum, max) are T or,
// for half inputs, float (U is deduced from the tensors passed).
#pragma once
#include "aoc/adv/softmax_core.h"

namespace aoc::adv {

inline void reject_nz(bool nz, const char* api, const std::source_location& loc) {
  check(!nz, api, loc, "isDataFormatNZ = true (NZ layout) is not supported by the CPU implementation");
}

inline AscendC::SoftMaxShapeInfo with_config(AscendC::SoftMaxShapeInfo s, const AscendC::SoftmaxConfig& c) {
  if (s.oriSrcK == 0) s.oriSrcK = c.oriSrcK;
  if (s.oriSrcM == 0) s.oriSrcM = c.oriSrcM;
  return s;
}

template <typename T, typename U, typename Tiling>
inline void softmax_api(SoftmaxKind kind, bool isUpdate, const char* api, SoftmaxOperands<T, U> o, const Tiling& tiling,
                        const AscendC::SoftMaxShapeInfo& info, uint32_t f32Buffers, const std::source_location& loc) {
  const SoftmaxShape sh = softmax_shape(tiling, info, sizeof(T), api, loc);
  softmax_run<T, U>(kind, isUpdate, api, o, sh, tiling.splitM, f32Buffers, loc);
}

}  // namespace aoc::adv

namespace AscendC {

#define AOC_SL std::source_location loc = std::source_location::current()
#define AOC_SM_TPARAMS                                                                                        \
  typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,            \
              const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG

// ---- SoftMax: y = exp(x - rowmax) / rowsum ----
template <AOC_SM_TPARAMS, typename U>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "SoftMax", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor, &sumTensor, &maxTensor};
  o.tmp = &sharedTmpBuffer;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::SoftMax, false, "SoftMax", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftMax, loc);
}
template <AOC_SM_TPARAMS, typename U>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "SoftMax", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor, &sumTensor, &maxTensor};
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::SoftMax, false, "SoftMax", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftMax, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::SoftmaxOperands<T, T> o{&dstTensor, &srcTensor};
  o.tmp = &sharedTmpBuffer;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::SoftMax, false, "SoftMax", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftMax, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::SoftmaxOperands<T, T> o{&dstTensor, &srcTensor};
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::SoftMax, false, "SoftMax", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftMax, loc);
}

// ---- SimpleSoftMax: y = exp(x - inMax) / inSum with precomputed row statistics ----
template <AOC_SM_TPARAMS, typename U>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& inSumTensor,
                          const LocalTensor<U>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "SimpleSoftMax", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor};
  o.inSum = &inSumTensor;
  o.inMax = &inMaxTensor;
  o.tmp = &sharedTmpBuffer;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::Simple, false, "SimpleSoftMax", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftMax, loc);
}
template <AOC_SM_TPARAMS, typename U>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& inSumTensor,
                          const LocalTensor<U>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "SimpleSoftMax", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor};
  o.inSum = &inSumTensor;
  o.inMax = &inMaxTensor;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::Simple, false, "SimpleSoftMax", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftMax, loc);
}

// ---- LogSoftMax: y = x - rowmax - log(rowsum(exp(x - rowmax))) ----
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename U>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                       const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "LogSoftMax", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dst, &src, &sum, &max};
  o.tmp = &sharedTmpBuffer;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::Log, false, "LogSoftMax", o, tiling, softmaxShapeInfo,
                        aoc::adv::bufs::LogSoftMax, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename U>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                       const LocalTensor<T>& src, const LogSoftMaxTiling& tiling,
                       const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "LogSoftMax", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dst, &src, &sum, &max};
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::Log, false, "LogSoftMax", o, tiling, softmaxShapeInfo,
                        aoc::adv::bufs::LogSoftMax, loc);
}

// ---- SoftmaxFlash (FlashAttention-1 update; superseded by SoftmaxFlashV2) ----
// isUpdate: max = max(rowmax, inMax), sum = exp(inMax - max) * inSum + rowsum(exp(x - max)),
// expMax = exp(inMax - max) * inSum / sum, y = exp(x - max) / sum.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor,
                         const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
                         const LocalTensor<T>& expMaxTensor, const LocalTensor<U>& inSumTensor,
                         const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                         const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor, &sumTensor, &maxTensor};
  if (isUpdate) {
    o.inSum = &inSumTensor;
    o.inMax = &inMaxTensor;
    o.expMaxOut = &expMaxTensor;
  }
  o.tmp = &sharedTmpBuffer;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::Flash, isUpdate, "SoftmaxFlash", o, tiling, softmaxShapeInfo,
                        aoc::adv::bufs::SoftmaxFlash, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor,
                         const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
                         const LocalTensor<T>& expMaxTensor, const LocalTensor<U>& inSumTensor,
                         const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor, &sumTensor, &maxTensor};
  if (isUpdate) {
    o.inSum = &inSumTensor;
    o.inMax = &inMaxTensor;
    o.expMaxOut = &expMaxTensor;
  }
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::Flash, isUpdate, "SoftmaxFlash", o, tiling, softmaxShapeInfo,
                        aoc::adv::bufs::SoftmaxFlash, loc);
}

// ---- SoftmaxFlashV2 (FlashAttention-2 update; y is not normalised) ----
// isUpdate = false: max = rowmax, y = exp(x - max), sum = rowsum(y).
// isUpdate = true:  max = max(rowmax, inMax), y = exp(x - max), expMax = exp(inMax - max),
//                   sum = expMax * inSum + rowsum(y).
#define AOC_SMV2_TPARAMS                                                                                      \
  typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,                 \
              bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG, typename U
template <AOC_SMV2_TPARAMS>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<U>& expSumTensor,
                           const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "SoftmaxFlashV2", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor, &expSumTensor, &maxTensor};
  if (isUpdate) {
    o.inSum = &inExpSumTensor;
    o.inMax = &inMaxTensor;
    o.expMaxOut = &expMaxTensor;
  }
  o.tmp = &sharedTmpBuffer;
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::FlashV2, isUpdate, "SoftmaxFlashV2", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftmaxFlash, loc);
}
template <AOC_SMV2_TPARAMS>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<U>& expSumTensor,
                           const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, AOC_SL) {
  aoc::adv::reject_nz(isDataFormatNZ, "SoftmaxFlashV2", loc);
  aoc::adv::SoftmaxOperands<T, U> o{&dstTensor, &srcTensor, &expSumTensor, &maxTensor};
  if (isUpdate) {
    o.inSum = &inExpSumTensor;
    o.inMax = &inMaxTensor;
    o.expMaxOut = &expMaxTensor;
  }
  aoc::adv::softmax_api(aoc::adv::SoftmaxKind::FlashV2, isUpdate, "SoftmaxFlashV2", o, tiling,
                        aoc::adv::with_config(softmaxShapeInfo, config), aoc::adv::bufs::SoftmaxFlash, loc);
}
#undef AOC_SMV2_TPARAMS

// Kernel-side tiling for SoftmaxFlashV2 when the host did not provide one.
constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                 const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                 const bool isUpdate = false, const bool isBasicBlock = false,
                                                 const bool isDataFormatNZ = false,
                                                 const bool isFlashOutputBrc = false) {
  return aoc::adv::softmax_tiling<SoftMaxTiling>(shapeInfo.srcM, shapeInfo.srcK, 32 / dataTypeSize2,
                                                 localWorkSpaceSize, aoc::adv::bufs::SoftmaxFlash);
}

#undef AOC_SM_TPARAMS
#undef AOC_SL

}  // namespace AscendC
