// Engine of the row-wise softmax family (SoftMax, SimpleSoftMax, LogSoftMax, SoftmaxFlash,
// SoftmaxFlashV2) on an [m, k] tile. Reduced per-row values (max, sum, expMax) live in
// one 32 B block per row, the value broadcast over the block. Columns at or beyond
// oriSrcK are padding: ignored by the reductions and written as 0.
#pragma once
#include <limits>
#include <vector>

#include "aoc/math_fn.h"
#include "aoc/adv/common.h"
#include "aoc/adv/tiling_calc.h"

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
  constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
  constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
  constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                          const SoftmaxMode modeIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
inline constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

struct SoftMaxShapeInfo {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
};

}  // namespace AscendC

namespace aoc::adv {

enum class SoftmaxKind { SoftMax, Simple, Log, Flash, FlashV2 };

struct SoftmaxShape {
  uint32_t m = 0, k = 0, oriK = 0;
};

template <typename Tiling>
inline SoftmaxShape softmax_shape(const Tiling& t, const AscendC::SoftMaxShapeInfo& s, uint32_t typeSize,
                                  const char* api, const std::source_location& loc) {
  SoftmaxShape sh;
  sh.m = s.srcM != 0 ? s.srcM : t.srcM;
  sh.k = s.srcK != 0 ? s.srcK : t.srcK;
  sh.oriK = s.oriSrcK != 0 ? s.oriSrcK : sh.k;
  check(sh.m != 0 && sh.k != 0, api, loc, "shape is empty: neither SoftMaxShapeInfo nor the tiling gives srcM/srcK");
  check(sh.oriK <= sh.k, api, loc, "oriSrcK ", sh.oriK, " exceeds srcK ", sh.k);
  check(uint64_t(sh.k) * typeSize % kBlockBytes == 0, api, loc, "srcK ", sh.k,
        " must make each row a multiple of 32 bytes (pad the last axis and pass oriSrcK)");
  return sh;
}

// Operands of one call; null pointers are operands the API variant does not have.
template <typename T, typename U>
struct SoftmaxOperands {
  const AscendC::LocalTensor<T>* dst = nullptr;
  const AscendC::LocalTensor<T>* src = nullptr;
  const AscendC::LocalTensor<U>* sumOut = nullptr;
  const AscendC::LocalTensor<U>* maxOut = nullptr;
  const AscendC::LocalTensor<U>* inSum = nullptr;
  const AscendC::LocalTensor<U>* inMax = nullptr;
  const AscendC::LocalTensor<T>* expMaxOut = nullptr;
  const AscendC::LocalTensor<uint8_t>* tmp = nullptr;
};

// Per-row results of the reductions.
struct RowStats {
  float max = 0, sum = 0, expMax = 0;
};

// Computes one row in float; reads the update inputs before anything is written, since
// kernels commonly pass the same tensor as inMax and maxOut.
AOC_API_UNCOUNTED inline RowStats softmax_row(SoftmaxKind kind, bool isUpdate, const float* x, float* y, uint32_t k, uint32_t oriK,
                            float inMax, float inSum) {
  RowStats st;
  float rowMax = -std::numeric_limits<float>::infinity();
  for (uint32_t j = 0; j < oriK; ++j) {
    if (aoc::fn::isnan(x[j]) || x[j] > rowMax) rowMax = x[j];
    if (aoc::fn::isnan(rowMax)) break;
  }
  const bool update = isUpdate && (kind == SoftmaxKind::Flash || kind == SoftmaxKind::FlashV2);
  float mx = kind == SoftmaxKind::Simple ? inMax : rowMax;
  if (update) mx = aoc::fn::isnan(rowMax) ? rowMax : (rowMax < inMax ? inMax : rowMax);
  float rowSum = 0;
  for (uint32_t j = 0; j < oriK; ++j) {
    y[j] = aoc::fn::exp(x[j] - mx);
    rowSum += y[j];
  }
  for (uint32_t j = oriK; j < k; ++j) y[j] = 0.0f;
  st.max = mx;
  st.sum = rowSum;
  switch (kind) {
    case SoftmaxKind::SoftMax:
      for (uint32_t j = 0; j < oriK; ++j) y[j] /= rowSum;
      break;
    case SoftmaxKind::Simple:
      for (uint32_t j = 0; j < oriK; ++j) y[j] /= inSum;
      st.sum = inSum;
      break;
    case SoftmaxKind::Log: {
      const float lse = aoc::fn::log(rowSum);
      for (uint32_t j = 0; j < oriK; ++j) y[j] = x[j] - mx - lse;
      break;
    }
    case SoftmaxKind::Flash:
      if (update) {
        const float em = aoc::fn::exp(inMax - mx);
        st.sum = em * inSum + rowSum;
        st.expMax = em * inSum / st.sum;
      }
      for (uint32_t j = 0; j < oriK; ++j) y[j] /= st.sum;
      break;
    case SoftmaxKind::FlashV2:
      if (update) {
        st.expMax = aoc::fn::exp(inMax - mx);
        st.sum = st.expMax * inSum + rowSum;
      }
      break;
  }
  return st;
}

// Basic instructions per pass of `rows` rows. 'K' steps touch the whole [rows, k] tile,
// 'R' steps one block per row; the target says where the step writes.
enum class SmTarget { Work, Red, Sum, Max, ExpMax };
struct SmStep {
  const char* op;
  bool perElem;
  SmTarget target;
};

inline std::vector<SmStep> softmax_steps(SoftmaxKind kind, bool isUpdate) {
  using S = SmTarget;
  const SmStep reduceMax{"ReduceMax", true, S::Red}, reduceSum{"ReduceSum", true, S::Red};
  const SmStep sub{"Sub", true, S::Work}, exp{"Exp", true, S::Work}, div{"Div", true, S::Work};
  switch (kind) {
    case SoftmaxKind::SoftMax:
      return {reduceMax, {"Brcb", false, S::Max}, sub, exp, reduceSum, {"Brcb", false, S::Sum}, div};
    case SoftmaxKind::Simple:
      return {sub, exp, div};
    case SoftmaxKind::Log:
      return {reduceMax, {"Brcb", false, S::Max}, sub, exp, reduceSum, {"Brcb", false, S::Sum},
              {"Ln", false, S::Red}, sub, sub};
    case SoftmaxKind::Flash:
      if (!isUpdate) return softmax_steps(SoftmaxKind::SoftMax, false);
      return {reduceMax, {"Max", false, S::Red}, {"Brcb", false, S::Max}, sub, exp, reduceSum,
              {"Sub", false, S::Red}, {"Exp", false, S::Red}, {"Mul", false, S::Red}, {"Add", false, S::Red},
              {"Brcb", false, S::Sum}, {"Div", false, S::ExpMax}, div};
    case SoftmaxKind::FlashV2:
      if (!isUpdate) return {reduceMax, {"Brcb", false, S::Max}, sub, exp, reduceSum, {"Brcb", false, S::Sum}};
      return {reduceMax, {"Max", false, S::Red}, {"Brcb", false, S::Max}, sub, exp, reduceSum,
              {"Sub", false, S::Red}, {"Exp", false, S::ExpMax}, {"Mul", false, S::Red}, {"Add", false, S::Red},
              {"Brcb", false, S::Sum}};
  }
  return {};
}

template <typename T, typename U>
inline void trace_softmax(SoftmaxKind kind, bool isUpdate, const SoftmaxOperands<T, U>& o, const SoftmaxShape& sh,
                          const Scratch& s, uint32_t rowsPerPass, const std::source_location& loc) {
  VecTrace tr(loc);
  constexpr bool up = is_16bit_float<T>;
  constexpr uint32_t outKU = kBlockBytes / sizeof(U), outKT = kBlockBytes / sizeof(T);
  const std::vector<SmStep> steps = softmax_steps(kind, isUpdate);
  for (uint32_t r0 = 0; r0 < sh.m; r0 += rowsPerPass) {
    const uint32_t rows = std::min(rowsPerPass, sh.m - r0);
    const uint64_t n = uint64_t(rows) * sh.k;
    const uint64_t tileBytes = n * sizeof(float);
    const Range in = o.src->aoc_range(uint64_t(r0) * sh.k, n);
    const Range out = o.dst->aoc_range(uint64_t(r0) * sh.k, n);
    const Range work[2] = {sub_range(s.range, 0, tileBytes), sub_range(s.range, tileBytes, tileBytes)};
    const Range red = sub_range(s.range, 2 * tileBytes, uint64_t(rows) * kBlockBytes);
    auto reduced = [&](const auto* t, uint32_t outK) AOC_LANE {
      return t ? t->aoc_range(uint64_t(r0) * outK, uint64_t(rows) * outK) : red;
    };
    Range cur = in;
    int w = 0;
    if (up) {
      tr.op("Cast", dtype_of<T>(), n, {in}, work[0], DType::F32);
      cur = work[0];
      w = 1;
    }
    size_t lastElem = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].perElem && steps[i].target == SmTarget::Work) lastElem = i;
    }
    for (size_t i = 0; i < steps.size(); ++i) {
      const SmStep& st = steps[i];
      if (st.perElem) {
        if (st.target == SmTarget::Red) {
          tr.op(st.op, DType::F32, n, {cur}, red);
          continue;
        }
        const Range dstR = (i == lastElem && !up) ? out : work[w];
        Range side = red;
        if (kind == SoftmaxKind::Simple) side = st.op[0] == 'D' ? reduced(o.inSum, outKU) : reduced(o.inMax, outKU);
        tr.op(st.op, DType::F32, n, {cur, side}, dstR);
        cur = dstR;
        w ^= 1;
        continue;
      }
      Range target = red;
      if (st.target == SmTarget::Sum) target = reduced(o.sumOut, outKU);
      if (st.target == SmTarget::Max) target = reduced(o.maxOut, outKU);
      if (st.target == SmTarget::ExpMax) target = reduced(o.expMaxOut, outKT);
      tr.op(st.op, DType::F32, uint64_t(rows) * (kBlockBytes / sizeof(float)), {red}, target);
    }
    if (up) tr.op("Cast", DType::F32, n, {cur}, out, dtype_of<T>());
  }
}

// Every row through softmax_row, with the reduced outputs broadcast over their blocks.
template <typename T, typename U>
AOC_API_UNCOUNTED void softmax_rows(SoftmaxKind kind, bool isUpdate, const SoftmaxOperands<T, U>& o,
                                    const SoftmaxShape& sh) {
  constexpr uint32_t outKU = kBlockBytes / sizeof(U), outKT = kBlockBytes / sizeof(T);
  std::vector<float> rows(2 * uint64_t(sh.k));
  float* x = rows.data();  // not the vector's operator[]: a library call per element here
  float* y = x + sh.k;
  for (uint32_t r = 0; r < sh.m; ++r) {
    const T* xs = o.src->aoc_ptr() + uint64_t(r) * sh.k;
    for (uint32_t j = 0; j < sh.k; ++j) x[j] = ld(xs[j]);
    const float inMax = o.inMax ? ld(o.inMax->aoc_ptr()[uint64_t(r) * outKU]) : 0.0f;
    const float inSum = o.inSum ? ld(o.inSum->aoc_ptr()[uint64_t(r) * outKU]) : 0.0f;
    const RowStats rs = softmax_row(kind, isUpdate, x, y, sh.k, sh.oriK, inMax, inSum);
    T* ys = o.dst->aoc_ptr() + uint64_t(r) * sh.k;
    for (uint32_t j = 0; j < sh.k; ++j) ys[j] = st<T>(y[j]);
    for (uint32_t j = 0; j < outKU; ++j) {
      if (o.sumOut) o.sumOut->aoc_ptr()[uint64_t(r) * outKU + j] = st<U>(rs.sum);
      if (o.maxOut) o.maxOut->aoc_ptr()[uint64_t(r) * outKU + j] = st<U>(rs.max);
    }
    if (o.expMaxOut && isUpdate) {
      for (uint32_t j = 0; j < outKT; ++j) o.expMaxOut->aoc_ptr()[uint64_t(r) * outKT + j] = st<T>(rs.expMax);
    }
  }
}

template <typename T, typename U>
inline void softmax_run(SoftmaxKind kind, bool isUpdate, const char* api, const SoftmaxOperands<T, U>& o,
                        const SoftmaxShape& sh, uint32_t tilingSplitM, uint32_t f32Buffers,
                        const std::source_location& loc) {
  static_assert(std::is_same_v<U, T> || std::is_same_v<U, float>, "reduced outputs are T or float");
  constexpr uint32_t outKU = kBlockBytes / sizeof(U), outKT = kBlockBytes / sizeof(T);
  const uint64_t n = uint64_t(sh.m) * sh.k;
  check_operand(*o.src, n, api, "srcTensor", loc);
  check_operand(*o.dst, n, api, "dstTensor", loc);
  const uint64_t nRed = uint64_t(sh.m) * outKU;
  if (o.sumOut) check_operand(*o.sumOut, nRed, api, "sumTensor", loc);
  if (o.maxOut) check_operand(*o.maxOut, nRed, api, "maxTensor", loc);
  if (o.inSum) check_operand(*o.inSum, nRed, api, "inSumTensor", loc);
  if (o.inMax) check_operand(*o.inMax, nRed, api, "inMaxTensor", loc);
  if (o.expMaxOut) check_operand(*o.expMaxOut, uint64_t(sh.m) * outKT, api, "expMaxTensor", loc);
  const Scratch s = resolve_scratch(o.tmp, rowwise_tmp(sh.m, sh.k, f32Buffers), api, loc);
  const uint32_t rowsPerPass = rows_per_pass(sh.m, sh.k, s.bytes, f32Buffers, tilingSplitM);

  softmax_rows(kind, isUpdate, o, sh);
  trace_softmax(kind, isUpdate, o, sh, s, rowsPerPass, loc);
}

}  // namespace aoc::adv
