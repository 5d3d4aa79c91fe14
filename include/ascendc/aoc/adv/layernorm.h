// LayerNorm over the last axis: the classic form on [B, S, H] with mean and variance
// outputs (LayerNormTiling), and the newer form on [A, R] with float mean and rstd
// outputs (LayerNormPara + LayerNormSeparateTiling). Statistics are accumulated in float
// over the original (unpadded) length; padded columns of the output are written as 0.
#pragma once
#include <string_view>

#include "aoc/math_fn.h"
#include "aoc/adv/norm_trace.h"
#include "aoc/adv/tiling_calc.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
inline constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

}  // namespace AscendC

namespace aoc::adv {

struct LayerNormJob {
  const char* api;
  uint32_t rows = 0, len = 0, stride = 0;  // statistics over `len` of each `stride`-long row
  float eps = 0;
  bool gamma = true, beta = true;
  bool rstd = false;  // second statistic is 1/sqrt(var + eps) instead of var
};

// Normalises each row; `statOut(r, mean, second)` stores the statistics.
template <typename T, typename G, typename StatOut>
AOC_API_UNCOUNTED void layernorm_rows(const LayerNormJob& j, T* out, const T* x, const G* gamma, const G* beta,
                                      StatOut statOut) {
  std::vector<float> buf(j.len);
  float* row = buf.data();  // not the vector's operator[]: a library call per element here
  for (uint32_t r = 0; r < j.rows; ++r) {
    const T* xr = x + uint64_t(r) * j.stride;
    float sum = 0;
    for (uint32_t c = 0; c < j.len; ++c) sum += (row[c] = ld(xr[c]));
    const float mean = sum / float(j.len);
    float sq = 0;
    for (uint32_t c = 0; c < j.len; ++c) sq += (row[c] - mean) * (row[c] - mean);
    const float var = sq / float(j.len);
    const float rstd = 1.0f / aoc::fn::sqrt(var + j.eps);
    T* orow = out + uint64_t(r) * j.stride;
    for (uint32_t c = 0; c < j.len; ++c) {
      float y = (row[c] - mean) * rstd;
      if (j.gamma) y *= ld(gamma[c]);
      if (j.beta) y += ld(beta[c]);
      orow[c] = st<T>(y);
    }
    for (uint32_t c = j.len; c < j.stride; ++c) orow[c] = st<T>(0.0f);
    statOut(r, mean, j.rstd ? rstd : var);
  }
}

inline std::vector<NormStep> layernorm_steps(bool gamma, bool beta, bool rstd) {
  std::vector<NormStep> s{{"ReduceSum", true, 0}, {"Muls", false, 'm'}, {"Sub", true, 0}, {"Mul", true, 0},
                          {"ReduceSum", true, 0}, {"Muls", false, rstd ? char(0) : 'v'}, {"Adds", false, 0},
                          {"Rsqrt", false, rstd ? 'v' : char(0)}, {"Mul", true, 0}};
  if (gamma) s.push_back({"Mul", true, 'g'});
  if (beta) s.push_back({"Add", true, 'b'});
  return s;
}

template <typename T, typename G, typename S>
inline void layernorm_run(const LayerNormJob& j, const AscendC::LocalTensor<T>& out,
                          const AscendC::LocalTensor<S>* mean, const AscendC::LocalTensor<S>* second,
                          const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<G>& gamma,
                          const AscendC::LocalTensor<G>& beta, const AscendC::LocalTensor<uint8_t>* tmp,
                          const std::source_location& loc) {
  check(j.rows != 0 && j.len != 0, j.api, loc, "shape is empty (tiling not filled?)");
  check(j.len <= j.stride, j.api, loc, "original length ", j.len, " exceeds the padded row length ", j.stride);
  check(uint64_t(j.stride) * sizeof(T) % kBlockBytes == 0, j.api, loc, "row length ", j.stride,
        " must make each row a multiple of 32 bytes");
  const uint64_t n = uint64_t(j.rows) * j.stride;
  check_operand(x, n, j.api, "inputX", loc);
  check_operand(out, n, j.api, "output", loc);
  if (j.gamma) check_operand(gamma, j.len, j.api, "gamma", loc);
  if (j.beta) check_operand(beta, j.len, j.api, "beta", loc);
  if (mean) check_operand(*mean, j.rows, j.api, "outputMean", loc);
  if (second) check_operand(*second, j.rows, j.api, j.rstd ? "outputRstd" : "outputVariance", loc);
  const Scratch s = resolve_scratch(tmp, rowwise_tmp(j.rows, j.stride, bufs::LayerNorm), j.api, loc);

  layernorm_rows<T, G>(j, out.aoc_ptr(), x.aoc_ptr(), gamma.aoc_ptr(), beta.aoc_ptr(),
                       [&](uint32_t r, float m, float v) AOC_LANE {
                         if (mean) mean->aoc_ptr()[r] = st<S>(m);
                         if (second) second->aoc_ptr()[r] = st<S>(v);
                       });

  VecTrace tr(loc);
  const std::vector<NormStep> steps = layernorm_steps(j.gamma, j.beta, j.rstd);
  const uint32_t rowsPerPass = rows_per_pass(j.rows, j.stride, s.bytes, bufs::LayerNorm, 0);
  for (uint32_t r0 = 0; r0 < j.rows; r0 += rowsPerPass) {
    const uint32_t rows = std::min(rowsPerPass, j.rows - r0);
    const uint64_t pn = uint64_t(rows) * j.stride;
    NormRanges nr;
    nr.gamma = gamma.aoc_range(0, j.gamma ? j.len : 0);
    nr.beta = beta.aoc_range(0, j.beta ? j.len : 0);
    if (mean) { nr.hasMean = true; nr.meanOut = mean->aoc_range(r0, rows); }
    if (second) { nr.hasVar = true; nr.varOut = second->aoc_range(r0, rows); }
    trace_norm_pass(tr, steps, dtype_of<T>(), is_16bit_float<T>, pn, rows, x.aoc_range(uint64_t(r0) * j.stride, pn),
                    out.aoc_range(uint64_t(r0) * j.stride, pn), s, nr);
  }
}

inline LayerNormJob classic_job(const AscendC::LayerNormTiling& t, float eps) {
  LayerNormJob j{"LayerNorm"};
  j.rows = t.bLength * t.sLength;
  j.stride = t.hLength;
  j.len = t.originalHLength != 0 ? t.originalHLength : t.hLength;
  j.eps = eps;
  return j;
}

template <const AscendC::LayerNormConfig& config>
inline LayerNormJob separate_job(const AscendC::LayerNormPara& p, float eps) {
  LayerNormJob j{"LayerNorm"};
  j.rows = p.aLength;
  j.len = p.rLength;
  j.stride = p.rLengthWithPadding != 0 ? p.rLengthWithPadding : p.rLength;
  j.eps = eps;
  j.gamma = !config.isNoGamma;
  j.beta = !config.isNoBeta;
  j.rstd = true;
  return j;
}

}  // namespace aoc::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                      LayerNormTiling& tiling, std::source_location loc = std::source_location::current()) {
  aoc::adv::layernorm_run<T, T, T>(aoc::adv::classic_job(tiling, aoc::adv::ld(epsilon)), output, &outputMean,
                                   &outputVariance, inputX, gamma, beta, &sharedTmpBuffer, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const T epsilon, LayerNormTiling& tiling,
                      std::source_location loc = std::source_location::current()) {
  aoc::adv::layernorm_run<T, T, T>(aoc::adv::classic_job(tiling, aoc::adv::ld(epsilon)), output, &outputMean,
                                   &outputVariance, inputX, gamma, beta, nullptr, loc);
}

// Newer form: y = (x - mean) * rstd * gamma + beta on [A, R] rows of rLengthWithPadding.
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling,
                      std::source_location loc = std::source_location::current()) {
  const bool stats = !config.isOnlyOutput;
  aoc::adv::layernorm_run<T, U, float>(aoc::adv::separate_job<config>(para, epsilon), output,
                                       stats ? &outputMean : nullptr, stats ? &outputRstd : nullptr, inputX, gamma,
                                       beta, nullptr, loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling,
                      std::source_location loc = std::source_location::current()) {
  const bool stats = !config.isOnlyOutput;
  aoc::adv::layernorm_run<T, U, float>(aoc::adv::separate_job<config>(para, epsilon), output,
                                       stats ? &outputMean : nullptr, stats ? &outputRstd : nullptr, inputX, gamma,
                                       beta, &sharedTmpBuffer, loc);
}

}  // namespace AscendC
