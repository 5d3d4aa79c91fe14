#include "sim/move_bytes.h"

#include <cstring>

namespace aoc::sim {
namespace {

// kLanes at a time: each lane does the same IEEE multiplication and subtraction as the scalar
// expression. Inlined into the variants below, so it is compiled for the instructions each allows.
template <size_t kLanes>
struct LanesOf;  // GCC's vector types of two and four doubles
template <>
struct LanesOf<2> {
  using type = double __attribute__((vector_size(16)));
};
template <>
struct LanesOf<4> {
  using type = double __attribute__((vector_size(32)));
};
template <size_t kLanes>
[[gnu::always_inline]] inline void move_bytes_lanes(double* rem, const double* rate, size_t n, double dt) {
  using Lanes = typename LanesOf<kLanes>::type;
  Lanes d;
  for (size_t l = 0; l < kLanes; ++l) d[l] = dt;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Lanes r, q;
    std::memcpy(&r, rem + i, sizeof r);
    std::memcpy(&q, rate + i, sizeof q);
    r -= q * d;
    std::memcpy(rem + i, &r, sizeof r);
  }
  for (; i < n; ++i) rem[i] -= rate[i] * dt;
}
void move_bytes_sse(double* rem, const double* rate, size_t n, double dt) { move_bytes_lanes<2>(rem, rate, n, dt); }
#if defined(__x86_64__) || defined(__i386__)
// Four at a time where the CPU has AVX. Only AVX is enabled, not FMA, so the product is still
// rounded before it is subtracted, as in the scalar expression.
__attribute__((target("avx"))) void move_bytes_avx(double* rem, const double* rate, size_t n, double dt) {
  move_bytes_lanes<4>(rem, rate, n, dt);
}
// Asked before main, so the CPU model is read first (its own initializer may not have run yet).
const bool kHasAvx = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") != 0;
}();
#endif

}  // namespace

void move_bytes(double* rem, const double* rate, size_t n, double dt) {
#if defined(__x86_64__) || defined(__i386__)
  if (kHasAvx) {
    move_bytes_avx(rem, rate, n, dt);
    return;
  }
#endif
  move_bytes_sse(rem, rate, n, dt);
}

}  // namespace aoc::sim
