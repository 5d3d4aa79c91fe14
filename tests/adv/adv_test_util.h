// Helpers for the advanced-API tests: UB tensors placed by a bump allocator, filling from
// and reading back to double, tolerance checks against double-precision references, and
// trace inspection.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace advtest {

using AscendC::LocalTensor;
using AscendC::TPosition;

// Fresh core state per test and a bump allocator over UB (32 B aligned).
class AdvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    aoc::core().init(aoc::CoreLimits{});
    next_ = 0;
  }

  template <typename T> LocalTensor<T> ub(uint32_t elems) {
    const uint32_t addr = next_;
    next_ += static_cast<uint32_t>((uint64_t(elems) * sizeof(T) + 31) / 32 * 32);
    return LocalTensor<T>(TPosition::VECCALC, addr, elems);
  }

  uint32_t next_ = 0;
};

template <typename T> inline void fill(const LocalTensor<T>& t, const std::vector<double>& v) {
  for (size_t i = 0; i < v.size(); ++i) t.aoc_ptr()[i] = T(v[i]);
}
// The value the tensor actually holds (after rounding to T), as double.
template <typename T> inline double at(const LocalTensor<T>& t, size_t i) {
  return static_cast<double>(static_cast<float>(t.aoc_ptr()[i]));
}

// Relative tolerance per element type: a few ulps of the output type.
template <typename T> constexpr double rtol() {
  if constexpr (std::is_same_v<T, half>) return 2e-3;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return 1.6e-2;
  else return 2e-5;
}

inline ::testing::AssertionResult close(double got, double want, double rt, double at) {
  if (std::isnan(want)) {
    return std::isnan(got) ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << "want NaN, got " << got;
  }
  if (std::isinf(want)) {
    if (got == want) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "want " << want << ", got " << got;
  }
  const double err = std::fabs(got - want);
  if (err <= at + rt * std::fabs(want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << " want " << want << " (error " << err << ")";
}

// Ops recorded on pipe V since the core was reset, in order.
inline std::vector<std::string> vec_ops() {
  std::vector<std::string> ops;
  for (const aoc::TraceRecord& r : aoc::core().trace.records) {
    if (r.pipe == aoc::Pipe::V && r.kind == aoc::RecKind::Compute) ops.emplace_back(r.op);
  }
  return ops;
}

inline bool contains(const std::vector<std::string>& ops, const std::string& op) {
  for (const auto& o : ops) {
    if (o == op) return true;
  }
  return false;
}

// Deterministic inputs in [lo, hi).
inline std::vector<double> ramp(size_t n, double lo, double hi) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * double((i * 7919) % n) / double(n);
  return v;
}

}  // namespace advtest
