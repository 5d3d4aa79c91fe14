// Reference for swi_glu (SwiGLU): x is cut into two equal halves along dimension `dim`
// (default -1); with a the first half and b the second, y = silu(a) * b, silu(a) = a * sigmoid(a).
// y has x's shape with dimension `dim` halved.
#include <cmath>
#include <cstdint>

#include "aoc_golden.h"

using golden_api::real;

static real silu(real a) {
  if (a >= real(0)) return a / (real(1) + std::exp(-a));
  const real e = std::exp(a);  // a < 0: sigmoid(a) = e / (1 + e), no overflow
  return a * e / (real(1) + e);
}

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  int64_t dim = call.attr_int("dim", -1);
  const int64_t rank = x.rank;
  if (dim < 0) dim += rank;
  if (rank < 1 || dim < 0 || dim >= rank) return call.fail("dim is outside x's rank");
  const int64_t n = x.dims[dim];
  if (n % 2 != 0) return call.fail("x's dimension dim must be even");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.dims[d];
  for (int64_t d = dim + 1; d < rank; ++d) inner *= x.dims[d];
  const int64_t half = n / 2 * inner;  // elements of one half within one outer slice
  if (y.size != outer * half) return call.fail("y does not have x's shape with dim halved");
  for (int64_t o = 0; o < outer; ++o) {
    const double* a = x.data + o * 2 * half;
    const double* b = a + half;
    double* out = y.data + o * half;
    for (int64_t i = 0; i < half; ++i) out[i] = silu(static_cast<real>(a[i])) * static_cast<real>(b[i]);
  }
  return 0;
}
