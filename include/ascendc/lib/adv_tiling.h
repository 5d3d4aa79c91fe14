// Host-side helpers of the advanced APIs: scratch-space ranges (GetXxxMaxMinTmpSize,
// GetXxxTmpBufferFactorSize) and tiling functions (SoftMaxTilingFunc, GetLayerNormNDTilingInfo,
// GetRmsNormTilingInfo ...). Sizes come from aoc/adv/tmp_size.h, the same formulas the
// kernel side enforces, so a size reported here is always accepted by the kernel.
#pragma once
#include <cstdint>

#include "aoc/adv/tiling_calc.h"
#include "aoc/adv/tmp_size.h"
#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"

namespace aoc::adv {

inline uint64_t shape_elems(const ge::Shape& s) {
  const int64_t n = s.GetShapeSize();
  return n > 0 ? static_cast<uint64_t>(n) : 0;
}

// [m, k] view of a shape: k is the last axis, m the product of the others.
inline void last_axis_view(const ge::Shape& s, uint32_t& m, uint32_t& k) {
  const size_t rank = s.GetDimNum();
  k = rank ? static_cast<uint32_t>(s.GetDim(rank - 1)) : 1;
  m = k ? static_cast<uint32_t>(shape_elems(s) / k) : 0;
}

inline void elementwise_range(const ge::Shape& s, uint32_t typeSize, uint32_t bufsF32, uint32_t& maxV, uint32_t& minV) {
  const TmpRange r = elementwise_tmp(shape_elems(s), typeSize, bufsF32);
  maxV = r.max;
  minV = r.min;
}

// maxTmp = maxLiveNodeCount * elements * typeSize + extraBuffer.
inline void elementwise_factor(uint32_t typeSize, uint32_t bufsF32, uint32_t& maxLiveNodeCount, uint32_t& extra) {
  maxLiveNodeCount = typeSize ? work_buffers(bufsF32, typeSize) * static_cast<uint32_t>(sizeof(float)) / typeSize : 0;
  extra = 0;
}

}  // namespace aoc::adv

namespace AscendC {

// ---- element-wise APIs: Get<Op>MaxMinTmpSize(shape, typeSize, isReuseSource, max, min) ----
#define AOC_ADV_TMP_HELPERS(Op, BUFS)                                                                            \
  inline void Get##Op##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                     uint32_t& maxValue, uint32_t& minValue) {                                  \
    aoc::adv::elementwise_range(srcShape, typeSize, BUFS, maxValue, minValue);                                   \
  }                                                                                                              \
  inline void Get##Op##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,                  \
                                           uint32_t& extraBuf) {                                                 \
    aoc::adv::elementwise_factor(typeSize, BUFS, maxLiveNodeCount, extraBuf);                                    \
  }

AOC_ADV_TMP_HELPERS(Sigmoid, aoc::adv::bufs::Sigmoid)
AOC_ADV_TMP_HELPERS(Tanh, aoc::adv::bufs::Tanh)
AOC_ADV_TMP_HELPERS(Erf, aoc::adv::bufs::Erf)
AOC_ADV_TMP_HELPERS(Erfc, aoc::adv::bufs::Erfc)
AOC_ADV_TMP_HELPERS(Log, aoc::adv::bufs::Log)
AOC_ADV_TMP_HELPERS(Log2, aoc::adv::bufs::Log2)
AOC_ADV_TMP_HELPERS(Log10, aoc::adv::bufs::Log10)
AOC_ADV_TMP_HELPERS(Sin, aoc::adv::bufs::Sin)
AOC_ADV_TMP_HELPERS(Cos, aoc::adv::bufs::Cos)
AOC_ADV_TMP_HELPERS(Sinh, aoc::adv::bufs::Sinh)
AOC_ADV_TMP_HELPERS(Cosh, aoc::adv::bufs::Cosh)
AOC_ADV_TMP_HELPERS(Floor, aoc::adv::bufs::Floor)
AOC_ADV_TMP_HELPERS(Ceil, aoc::adv::bufs::Ceil)
AOC_ADV_TMP_HELPERS(Trunc, aoc::adv::bufs::Trunc)
AOC_ADV_TMP_HELPERS(Sign, aoc::adv::bufs::Sign)
AOC_ADV_TMP_HELPERS(Clamp, aoc::adv::bufs::Clamp)
#undef AOC_ADV_TMP_HELPERS

// Exp reports whether the shape is usable, as the device helper does.
inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
  aoc::adv::elementwise_range(srcShape, typeSize, aoc::adv::bufs::Exp, maxValue, minValue);
  return aoc::adv::shape_elems(srcShape) > 0;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  aoc::adv::elementwise_factor(typeSize, aoc::adv::bufs::Exp, maxLiveNodeCount, extraBuffer);
}

// Round takes the platform first; any platform object is accepted (it does not change the size).
template <typename Platform>
inline void GetRoundMaxMinTmpSize(const Platform&, const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  aoc::adv::elementwise_range(srcShape, typeSize, aoc::adv::bufs::Round, maxValue, minValue);
}
template <typename Platform>
inline void GetRoundTmpBufferFactorSize(const Platform&, const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                        uint32_t& extraBuf) {
  aoc::adv::elementwise_factor(typeSize, aoc::adv::bufs::Round, maxLiveNodeCount, extraBuf);
}

inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  // Gelu needs the most of the family; FasterGelu(V2) fit in the same range.
  aoc::adv::elementwise_range(srcShape, typeSize, aoc::adv::bufs::Gelu, maxValue, minValue);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  GetGeluMaxMinTmpSize(srcShape, typeSize, mx, mn);
  return mx;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  GetGeluMaxMinTmpSize(srcShape, typeSize, mx, mn);
  return mn;
}

inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource = false) {
  aoc::adv::elementwise_range(srcShape, typeSize, aoc::adv::bufs::SwiGLU, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  aoc::adv::elementwise_factor(typeSize, aoc::adv::bufs::SwiGLU, maxLiveNodeCount, extraBuffer);
}
inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
  aoc::adv::elementwise_range(srcShape, typeSize, aoc::adv::bufs::Swish, maxValue, minValue);
}
inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
  aoc::adv::elementwise_range(srcShape, typeSize, aoc::adv::bufs::Silu, maxValue, minValue);
}

inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  // A scalar operand has a shape of one element; size by the tensor operand.
  const ge::Shape& big = srcShape1.GetShapeSize() >= srcShape2.GetShapeSize() ? srcShape1 : srcShape2;
  aoc::adv::elementwise_range(big, typeSize, aoc::adv::bufs::Power, maxValue, minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  aoc::adv::elementwise_factor(typeSize, aoc::adv::bufs::Power, maxLiveNodeCount, extraBuffer);
}

// ---- softmax family: sizes and tilings over the [m, k] view of the shape ----
namespace detail_softmax_host {
inline aoc::adv::TmpRange range(const ge::Shape& s, uint32_t bufs) {
  uint32_t m = 0, k = 0;
  aoc::adv::last_axis_view(s, m, k);
  return aoc::adv::rowwise_tmp(m, k, bufs);
}
template <typename Tiling>
inline void fill(const ge::Shape& s, uint32_t outTypeSize, uint32_t work, uint32_t bufs, Tiling& t) {
  uint32_t m = 0, k = 0;
  aoc::adv::last_axis_view(s, m, k);
  t = aoc::adv::softmax_tiling<Tiling>(m, k, 32 / (outTypeSize ? outTypeSize : 4), work, bufs);
}
}  // namespace detail_softmax_host

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftMax).max;
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftMax).min;
}
inline void GetSoftMaxMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  const aoc::adv::TmpRange r = detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftMax);
  maxValue = r.max;
  minValue = r.min;
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& softmaxTiling) {
  detail_softmax_host::fill(srcShape, dataTypeSize, localWorkSpaceSize, aoc::adv::bufs::SoftMax, softmaxTiling);
}
inline bool IsBasicBlockInSoftMax(tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
  // Basic block: rows a multiple of 8 and a row a multiple of 64 elements.
  return tiling.splitM % 8 == 0 && tiling.srcK % 64 == 0 && tiling.srcK * dataTypeSize <= 2048;
}

inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftmaxFlash).max;
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftmaxFlash).min;
}
inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& softmaxFlashTiling,
                                   const bool isUpdate = false) {
  detail_softmax_host::fill(srcShape, dataTypeSize, localWorkSpaceSize, aoc::adv::bufs::SoftmaxFlash,
                            softmaxFlashTiling);
}

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftmaxFlash).max;
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::SoftmaxFlash).min;
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  detail_softmax_host::fill(srcShape, dataTypeSize2, localWorkSpaceSize, aoc::adv::bufs::SoftmaxFlash,
                            softmaxFlashTiling);
}

inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::LogSoftMax).max;
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return detail_softmax_host::range(srcShape, aoc::adv::bufs::LogSoftMax).min;
}
inline void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, tiling::LogSoftMaxTiling& softmaxTiling) {
  detail_softmax_host::fill(srcShape, dataTypeSize, localWorkSpaceSize, aoc::adv::bufs::LogSoftMax, softmaxTiling);
}

// ---- LayerNorm: classic shape {B, S, H[, originH]}, separate shape {A, R} ----
namespace detail_layernorm_host {
struct Bsh {
  uint32_t b = 1, s = 1, h = 1, oriH = 1;
};
inline Bsh bsh(const ge::Shape& shape) {
  Bsh v;
  const size_t r = shape.GetDimNum();
  if (r >= 3) {
    v.b = static_cast<uint32_t>(shape.GetDim(0));
    v.s = static_cast<uint32_t>(shape.GetDim(1));
    v.h = static_cast<uint32_t>(shape.GetDim(2));
    v.oriH = r >= 4 ? static_cast<uint32_t>(shape.GetDim(3)) : v.h;
  } else if (r == 2) {
    v.s = static_cast<uint32_t>(shape.GetDim(0));
    v.h = v.oriH = static_cast<uint32_t>(shape.GetDim(1));
  } else if (r == 1) {
    v.h = v.oriH = static_cast<uint32_t>(shape.GetDim(0));
  }
  return v;
}
}  // namespace detail_layernorm_host

inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  const auto v = detail_layernorm_host::bsh(srcShape);
  const aoc::adv::TmpRange r = aoc::adv::rowwise_tmp(v.b * v.s, v.h, aoc::adv::bufs::LayerNorm);
  maxValue = r.max;
  minValue = r.min;
}
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
  uint32_t a = 0, r = 0;
  aoc::adv::last_axis_view(srcShape, a, r);
  const aoc::adv::TmpRange t = aoc::adv::rowwise_tmp(a, r, aoc::adv::bufs::LayerNorm);
  maxValue = t.max;
  minValue = t.min;
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     tiling::LayerNormTiling& tiling) {
  const auto v = detail_layernorm_host::bsh(srcShape);
  tiling = {};
  tiling.bLength = v.b;
  tiling.sLength = v.s;
  tiling.hLength = v.h;
  tiling.originalHLength = v.oriH;
  tiling.inputXSize = v.b * v.s * v.h;
  tiling.meanVarSize = v.b * v.s;
  tiling.numberOfTmpBuf = aoc::adv::bufs::LayerNorm;
  const uint32_t rowsFit = aoc::adv::rows_per_pass(v.b * v.s, v.h, stackBufferSize, aoc::adv::bufs::LayerNorm, 0);
  tiling.oneTmpSize = rowsFit * v.h;
  tiling.tmpBufSize = stackBufferSize / sizeof(float);
  tiling.firstTmpStartPos = 0;
  tiling.secondTmpStartPos = tiling.oneTmpSize;
  tiling.thirdTmpStartPos = 2 * tiling.oneTmpSize;
  tiling.loopRound = (v.b * v.s) / rowsFit;
  tiling.inputRoundSize = rowsFit * v.h;
  tiling.inputTailSize = ((v.b * v.s) % rowsFit) * v.h;
  tiling.inputTailPos = tiling.loopRound * tiling.inputRoundSize;
  tiling.meanVarRoundSize = rowsFit;
  tiling.meanVarTailSize = (v.b * v.s) % rowsFit;
  tiling.meanVarTailPos = tiling.loopRound * rowsFit;
  tiling.bshCurLength = tiling.inputRoundSize;
  tiling.bsCurLength = rowsFit;
  tiling.lastDimValueBack = v.oriH ? 1.0f / float(v.oriH) : 0.0f;
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     tiling::LayerNormSeparateTiling& tiling) {
  uint32_t a = 0, r = 0;
  aoc::adv::last_axis_view(srcShape, a, r);
  tiling = {};
  tiling.aLength = a;
  tiling.rLength = r;
  tiling.inputXSize = a * r;
  tiling.meanVarSize = a;
  tiling.numberOfTmpBuf = aoc::adv::bufs::LayerNorm;
  const uint32_t rowsFit = aoc::adv::rows_per_pass(a, r, stackBufferSize, aoc::adv::bufs::LayerNorm, 0);
  tiling.tmpBufSize = stackBufferSize / sizeof(float);
  tiling.oneTmpSize = rowsFit * r;
  tiling.secondTmpStartPos = tiling.oneTmpSize;
  tiling.thirdTmpStartPos = 2 * tiling.oneTmpSize;
  tiling.loopRound = a / rowsFit;
  tiling.inputRoundSize = rowsFit * r;
  tiling.inputTailSize = (a % rowsFit) * r;
  tiling.inputTailPos = tiling.loopRound * tiling.inputRoundSize;
  tiling.meanVarRoundSize = rowsFit;
  tiling.meanVarTailSize = a % rowsFit;
  tiling.meanVarTailPos = tiling.loopRound * rowsFit;
  tiling.arCurLength = tiling.inputRoundSize;
  tiling.aCurLength = rowsFit;
  tiling.rValueBack = r ? 1.0f / float(r) : 0.0f;
  tiling.k2Rec = tiling.rValueBack;
  tiling.k2RRec = tiling.rValueBack;
}

// ---- RmsNorm ----
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  const auto v = detail_layernorm_host::bsh(srcShape);
  const aoc::adv::TmpRange r = aoc::adv::rowwise_tmp(v.b * v.s, v.h, aoc::adv::bufs::RmsNorm);
  maxValue = r.max;
  minValue = r.min;
  return r.max > 0;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  const auto v = detail_layernorm_host::bsh(srcShape);
  const auto o = detail_layernorm_host::bsh(originSrcShape);
  const aoc::adv::TmpRange need = aoc::adv::rowwise_tmp(v.b * v.s, v.h, aoc::adv::bufs::RmsNorm);
  if (need.max == 0 || stackBufferByteSize < need.min || o.h > v.h) return false;
  const uint32_t rows = v.b * v.s;
  const uint32_t rowsFit = aoc::adv::rows_per_pass(rows, v.h, stackBufferByteSize, aoc::adv::bufs::RmsNorm, 0);
  tiling = {};
  tiling.bLength = v.b;
  tiling.sLength = v.s;
  tiling.hLength = v.h;
  tiling.originalHLength = o.h;
  tiling.reciprocalOfHLength = 1.0f / float(o.h);
  tiling.mainBsLength = rowsFit;
  tiling.mainBshLength = rowsFit * v.h;
  tiling.mainBsLengthAlign = static_cast<uint32_t>(aoc::adv::align_up(rowsFit, 8));
  tiling.loopRound = rows / rowsFit;
  tiling.inputTailPos = tiling.loopRound * tiling.mainBshLength;
  tiling.tailBsLength = rows % rowsFit;
  tiling.tailBshLength = tiling.tailBsLength * v.h;
  return true;
}

}  // namespace AscendC
