// Helpers shared by the vector API tests: fresh core state and UB tensors at fixed addresses.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"

namespace vectest {

class VecTest : public ::testing::Test {
 protected:
  void SetUp() override { aoc::core().init(aoc::CoreLimits{}); }
  template <typename T> AscendC::LocalTensor<T> ub(uint32_t byteAddr, uint32_t elems) {
    return AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC, byteAddr, elems);
  }
  template <typename T> void fill(const AscendC::LocalTensor<T>& t, uint32_t n, T v) {
    for (uint32_t i = 0; i < n; ++i) t.aoc_ptr()[i] = v;
  }
  const aoc::TraceRecord& last() { return aoc::core().trace.records.back(); }
};

inline uint16_t bits(half h) { return h.bits; }
inline bool same_half(half a, half b) {
  return (std::isnan(float(a)) && std::isnan(float(b))) || a.bits == b.bits;
}

}  // namespace vectest
