// Element-wise math functions of the advanced API: Tanh, Erf, Erfc, Exp (Taylor form),
// Log/Log2/Log10, Power, Sin, Cos, Sinh, Cosh, Floor, Ceil, Round, Trunc, Sign,
// ClampMax, ClampMin. Inputs outside a function's domain give what IEEE float gives
// (Log of a negative is NaN, Log(0) is -inf); NaN propagates.
#pragma once

#include "aoc/math_fn.h"
#include "aoc/adv/elementwise.h"

namespace aoc::adv {

// A unary math API: name, work buffers, instruction sequence and the float function.
#define AOC_ADV_MATH_IMPL(impl, Name, BUFS, EXPR, ...)                                                         \
  template <typename T>                                                                                        \
  inline void impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,                     \
                   const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {    \
    run_elementwise<T>({Name, n, BUFS, {__VA_ARGS__}}, dst, src, nullptr, tmp, [](float x, float) AOC_LANE { return EXPR; }, \
                       loc);                                                                                   \
  }

AOC_ADV_MATH_IMPL(tanh_impl, "Tanh", bufs::Tanh, aoc::fn::tanh(x), "Mins", "Maxs", "Muls", "Exp", "Adds", "Adds", "Div")
AOC_ADV_MATH_IMPL(erf_impl, "Erf", bufs::Erf, aoc::fn::erf(x), "Mins", "Maxs", "Mul", "Muls", "Adds", "Mul", "Adds", "Mul",
                  "Adds", "Mul", "Muls", "Adds", "Mul", "Adds", "Mul", "Adds", "Div")
AOC_ADV_MATH_IMPL(erfc_impl, "Erfc", bufs::Erfc, aoc::fn::erfc(x), "Abs", "Muls", "Adds", "Reciprocal", "Muls", "Adds",
                  "Mul", "Adds", "Mul", "Adds", "Mul", "Adds", "Mul", "Mul", "Muls", "Exp", "Mul", "Compare", "Select")
AOC_ADV_MATH_IMPL(log_impl, "Log", bufs::Log, aoc::fn::log(x), "Ln")
AOC_ADV_MATH_IMPL(log2_impl, "Log2", bufs::Log2, aoc::fn::log2(x), "Ln", "Muls")
AOC_ADV_MATH_IMPL(log10_impl, "Log10", bufs::Log10, aoc::fn::log10(x), "Ln", "Muls")
AOC_ADV_MATH_IMPL(sin_impl, "Sin", bufs::Sin, aoc::fn::sin(x), "Muls", "Cast", "Cast", "Muls", "Sub", "Muls", "Sub", "Mul",
                  "Muls", "Adds", "Mul", "Adds", "Mul", "Adds", "Mul", "Mul", "Muls", "Mul")
AOC_ADV_MATH_IMPL(cos_impl, "Cos", bufs::Cos, aoc::fn::cos(x), "Adds", "Muls", "Cast", "Cast", "Muls", "Sub", "Muls", "Sub",
                  "Mul", "Muls", "Adds", "Mul", "Adds", "Mul", "Adds", "Mul", "Mul", "Muls", "Mul")
AOC_ADV_MATH_IMPL(sinh_impl, "Sinh", bufs::Sinh, aoc::fn::sinh(x), "Exp", "Muls", "Exp", "Sub", "Muls")
AOC_ADV_MATH_IMPL(cosh_impl, "Cosh", bufs::Cosh, aoc::fn::cosh(x), "Exp", "Muls", "Exp", "Add", "Muls")
AOC_ADV_MATH_IMPL(floor_impl, "Floor", bufs::Floor, aoc::fn::floor(x), "Cast", "Cast")
AOC_ADV_MATH_IMPL(ceil_impl, "Ceil", bufs::Ceil, aoc::fn::ceil(x), "Cast", "Cast")
// Halves round away from zero: Round(3.5) = 4, Round(-2.5) = -3.
AOC_ADV_MATH_IMPL(round_impl, "Round", bufs::Round, aoc::fn::round(x), "Cast", "Cast")
AOC_ADV_MATH_IMPL(trunc_impl, "Trunc", bufs::Trunc, aoc::fn::trunc(x), "Cast", "Cast")
// Sign: 1, -1 or 0 (signed zero kept); NaN stays NaN.
AOC_ADV_MATH_IMPL(sign_impl, "Sign", bufs::Sign, (x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x)), "Compares", "Select",
                  "Compares", "Select", "Add")
#undef AOC_ADV_MATH_IMPL

// Steps of the Taylor-form Exp: split x into integer and fractional parts, exp of the
// integer part, a Horner polynomial of `level` terms for the fraction, and the product.
inline std::vector<const char*> exp_taylor_steps(uint8_t level) {
  if (level == 0) return {"Exp"};
  std::vector<const char*> s{"Cast", "Cast", "Sub", "Exp"};
  for (uint8_t i = 0; i < level; ++i) {
    s.push_back("Muls");
    s.push_back("Adds");
  }
  s.push_back("Mul");
  return s;
}

AOC_FORCE_INLINE float pow_f(float base, float e) { return aoc::fn::pow(base, e); }

}  // namespace aoc::adv

namespace AscendC {

AOC_ADV_UNARY_OVERLOADS(Tanh, aoc::adv::tanh_impl)
AOC_ADV_UNARY_OVERLOADS(Erf, aoc::adv::erf_impl)
AOC_ADV_UNARY_OVERLOADS(Erfc, aoc::adv::erfc_impl)
AOC_ADV_UNARY_OVERLOADS(Log, aoc::adv::log_impl)
AOC_ADV_UNARY_OVERLOADS(Log2, aoc::adv::log2_impl)
AOC_ADV_UNARY_OVERLOADS(Log10, aoc::adv::log10_impl)
AOC_ADV_UNARY_OVERLOADS(Sin, aoc::adv::sin_impl)
AOC_ADV_UNARY_OVERLOADS(Cos, aoc::adv::cos_impl)
AOC_ADV_UNARY_OVERLOADS(Sinh, aoc::adv::sinh_impl)
AOC_ADV_UNARY_OVERLOADS(Cosh, aoc::adv::cosh_impl)
AOC_ADV_UNARY_OVERLOADS(Floor, aoc::adv::floor_impl)
AOC_ADV_UNARY_OVERLOADS(Ceil, aoc::adv::ceil_impl)
AOC_ADV_UNARY_OVERLOADS(Round, aoc::adv::round_impl)
AOC_ADV_UNARY_OVERLOADS(Trunc, aoc::adv::trunc_impl)
AOC_ADV_UNARY_OVERLOADS(Sign, aoc::adv::sign_impl)

// Advanced Exp: the Taylor level is a template argument, which keeps these overloads
// apart from the basic Exp(dst, src, count).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                std::source_location loc = std::source_location::current()) {
  aoc::adv::run_elementwise<T>({"Exp", calCount, aoc::adv::bufs::Exp, aoc::adv::exp_taylor_steps(taylorExpandLevel)},
                               dstLocal, srcLocal, nullptr, &sharedTmpBuffer,
                               [](float x, float) AOC_LANE { return aoc::fn::exp(x); }, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
                std::source_location loc = std::source_location::current()) {
  aoc::adv::run_elementwise<T>({"Exp", calCount, aoc::adv::bufs::Exp, aoc::adv::exp_taylor_steps(taylorExpandLevel)},
                               dstLocal, srcLocal, nullptr, nullptr, [](float x, float) AOC_LANE { return aoc::fn::exp(x); }, loc);
}

// ---- Power: tensor^tensor, tensor^scalar, scalar^tensor ----
namespace detail_power {
inline std::vector<const char*> steps() { return {"Abs", "Ln", "Mul", "Exp", "Compares", "Select", "Cast", "Select"}; }
template <typename T>
inline void tensor_tensor(const LocalTensor<T>& dst, const LocalTensor<T>& base, const LocalTensor<T>& exp,
                          const LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  aoc::adv::run_elementwise<T>({"Power", n, aoc::adv::bufs::Power, steps()}, dst, base, &exp, tmp,
                               [](float b, float e) AOC_LANE { return aoc::adv::pow_f(b, e); }, loc);
}
template <typename T>
inline void tensor_scalar(const LocalTensor<T>& dst, const LocalTensor<T>& base, float e,
                          const LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  aoc::adv::run_elementwise<T>({"Power", n, aoc::adv::bufs::Power, steps()}, dst, base, nullptr, tmp,
                               [e](float b, float) { return aoc::adv::pow_f(b, e); }, loc);
}
template <typename T>
inline void scalar_tensor(const LocalTensor<T>& dst, float b, const LocalTensor<T>& exp,
                          const LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  aoc::adv::run_elementwise<T>({"Power", n, aoc::adv::bufs::Power, steps()}, dst, exp, nullptr, tmp,
                               [b](float e, float) { return aoc::adv::pow_f(b, e); }, loc);
}
}  // namespace detail_power

#define AOC_SL std::source_location loc = std::source_location::current()
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, AOC_SL) {
  detail_power::tensor_tensor<T>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  uint32_t calCount, AOC_SL) {
  detail_power::tensor_tensor<T>(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, AOC_SL) {
  detail_power::tensor_tensor<T>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  AOC_SL) {
  detail_power::tensor_tensor<T>(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, AOC_SL) {
  detail_power::tensor_scalar<T>(dstTensor, src0Tensor, aoc::adv::ld(src1Scalar), &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  uint32_t calCount, AOC_SL) {
  detail_power::tensor_scalar<T>(dstTensor, src0Tensor, aoc::adv::ld(src1Scalar), nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, AOC_SL) {
  detail_power::tensor_scalar<T>(dstTensor, src0Tensor, aoc::adv::ld(src1Scalar), &sharedTmpBuffer,
                                 src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar, AOC_SL) {
  detail_power::tensor_scalar<T>(dstTensor, src0Tensor, aoc::adv::ld(src1Scalar), nullptr, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, AOC_SL) {
  detail_power::scalar_tensor<T>(dstTensor, aoc::adv::ld(src0Scalar), src1Tensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  uint32_t calCount, AOC_SL) {
  detail_power::scalar_tensor<T>(dstTensor, aoc::adv::ld(src0Scalar), src1Tensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, AOC_SL) {
  detail_power::scalar_tensor<T>(dstTensor, aoc::adv::ld(src0Scalar), src1Tensor, &sharedTmpBuffer,
                                 src1Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor, AOC_SL) {
  detail_power::scalar_tensor<T>(dstTensor, aoc::adv::ld(src0Scalar), src1Tensor, nullptr, src1Tensor.GetSize(), loc);
}

// ---- ClampMax / ClampMin: dst = min(src, scalar) / max(src, scalar) ----
namespace detail_clamp {
template <typename T>
inline void run(const char* api, bool upper, const LocalTensor<T>& dst, const LocalTensor<T>& src, float s,
                const LocalTensor<uint8_t>* tmp, uint32_t n, const std::source_location& loc) {
  aoc::adv::run_elementwise<T>({api, n, aoc::adv::bufs::Clamp, {upper ? "Mins" : "Maxs"}}, dst, src, nullptr, tmp,
                               [upper, s](float x, float) {
                                 if (aoc::fn::isnan(x)) return x;
                                 return upper ? std::min(x, s) : std::max(x, s);
                               },
                               loc);
}
}  // namespace detail_clamp

template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount, AOC_SL) {
  detail_clamp::run<T>("ClampMax", true, dstTensor, srcTensor, aoc::adv::ld(scalar), &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                     const uint32_t calCount, AOC_SL) {
  detail_clamp::run<T>("ClampMax", true, dstTensor, srcTensor, aoc::adv::ld(scalar), nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount, AOC_SL) {
  detail_clamp::run<T>("ClampMin", false, dstTensor, srcTensor, aoc::adv::ld(scalar), &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                     const uint32_t calCount, AOC_SL) {
  detail_clamp::run<T>("ClampMin", false, dstTensor, srcTensor, aoc::adv::ld(scalar), nullptr, calCount, loc);
}
#undef AOC_SL

}  // namespace AscendC
