// Element-wise activation functions of the advanced API: Sigmoid, Gelu, FasterGelu,
// FasterGeluV2, Silu, Swish, SwiGLU. Each traces the basic vector instructions the device
// implementation issues (listed beside each function).
#pragma once

#include "aoc/math_fn.h"
#include "aoc/adv/elementwise.h"

namespace aoc::adv {

AOC_FORCE_INLINE float sigmoid_f(float x) { return 1.0f / (1.0f + aoc::fn::exp(-x)); }

template <typename T>
inline void sigmoid_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  run_elementwise<T>({"Sigmoid", n, bufs::Sigmoid, {"Muls", "Exp", "Adds", "Reciprocal"}}, dst, src, nullptr, tmp,
                     [](float x, float) AOC_LANE { return sigmoid_f(x); }, loc);
}

// tanh-form GELU written as x * sigmoid(2 * sqrt(2/pi) * (x + 0.044715 x^3)).
AOC_FORCE_INLINE float gelu_f(float x) {
  constexpr float kCubic = 0.044715f, kScale = 1.5957691216057308f;
  return x / (1.0f + aoc::fn::exp(-kScale * (x + kCubic * x * x * x)));
}
AOC_FORCE_INLINE float faster_gelu_f(float x) { return x / (1.0f + aoc::fn::exp(-1.702f * x)); }
// Piecewise-quadratic approximation of the normal CDF on x/sqrt(2), saturating beyond 1.769.
AOC_FORCE_INLINE float faster_gelu_v2_f(float x) {
  constexpr float kA = -0.1444f, kB = -1.769f, kInvSqrt2 = 0.7071f;
  const float sgn = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
  const float a = aoc::fn::fabs(x) * kInvSqrt2;
  const float c = (-kB < a ? -kB : a) + kB;
  return x * (sgn * (kA * c * c + 0.5f) + 0.5f);
}

template <typename T, float (*F)(float)>
inline void gelu_family(const char* api, uint32_t nbufs, std::vector<const char*> steps,
                        const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  run_elementwise<T>({api, n, nbufs, std::move(steps)}, dst, src, nullptr, tmp, [](float x, float) AOC_LANE { return F(x); },
                     loc);
}

}  // namespace aoc::adv

namespace AscendC {

AOC_ADV_UNARY_OVERLOADS(Sigmoid, aoc::adv::sigmoid_impl)

// Gelu family: template <T, highPrecision, highPerformance>, tmp and no-tmp forms.
#define AOC_ADV_GELU_API(Name, FN, BUFS, ...)                                                                    \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                             \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                             \
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,                        \
                   std::source_location loc = std::source_location::current()) {                              \
    aoc::adv::gelu_family<T, FN>(#Name, BUFS, {__VA_ARGS__}, dstLocal, srcLocal, &sharedTmpBuffer, dataSize, loc); \
  }                                                                                                             \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                             \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,     \
                   std::source_location loc = std::source_location::current()) {                              \
    aoc::adv::gelu_family<T, FN>(#Name, BUFS, {__VA_ARGS__}, dstLocal, srcLocal, nullptr, dataSize, loc);       \
  }

AOC_ADV_GELU_API(Gelu, aoc::adv::gelu_f, aoc::adv::bufs::Gelu, "Mul", "Mul", "Muls", "Add", "Muls", "Exp", "Adds",
                 "Div")
AOC_ADV_GELU_API(FasterGelu, aoc::adv::faster_gelu_f, aoc::adv::bufs::FasterGelu, "Muls", "Exp", "Adds", "Div")
AOC_ADV_GELU_API(FasterGeluV2, aoc::adv::faster_gelu_v2_f, aoc::adv::bufs::FasterGeluV2, "Abs", "Muls", "Mins",
                 "Adds", "Mul", "Muls", "Adds", "Adds", "Div", "Mul", "Adds", "Mul")
#undef AOC_ADV_GELU_API

template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                 std::source_location loc = std::source_location::current()) {
  aoc::adv::run_elementwise<T>({"Silu", dataSize, aoc::adv::bufs::Silu, {"Muls", "Exp", "Adds", "Div"}}, dstLocal,
                               srcLocal, nullptr, nullptr, [](float x, float) AOC_LANE { return x * aoc::adv::sigmoid_f(x); },
                               loc);
}

template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                  const T scalarValue, std::source_location loc = std::source_location::current()) {
  const float beta = aoc::adv::ld(scalarValue);
  aoc::adv::run_elementwise<T>({"Swish", dataSize, aoc::adv::bufs::Swish, {"Muls", "Exp", "Adds", "Div"}}, dstLocal,
                               srcLocal, nullptr, nullptr,
                               [beta](float x, float) { return x * aoc::adv::sigmoid_f(beta * x); }, loc);
}

namespace detail_swiglu {
// dst = src0 * swish(src1) with swish(x) = x * sigmoid(beta * x).
template <typename T>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, float beta,
                const LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  aoc::adv::run_elementwise<T>({"SwiGLU", n, aoc::adv::bufs::SwiGLU, {"Muls", "Exp", "Adds", "Div", "Mul"}}, dst,
                               src1, &src0, tmp,
                               [beta](float x1, float x0) { return x0 * (x1 * aoc::adv::sigmoid_f(beta * x1)); },
                               loc);
}
}  // namespace detail_swiglu

template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                   std::source_location loc = std::source_location::current()) {
  detail_swiglu::run<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount,
                   std::source_location loc = std::source_location::current()) {
  detail_swiglu::run<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue,
                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                   std::source_location loc = std::source_location::current()) {
  detail_swiglu::run<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue,
                   std::source_location loc = std::source_location::current()) {
  detail_swiglu::run<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, srcTensor0.GetSize(), loc);
}

}  // namespace AscendC
