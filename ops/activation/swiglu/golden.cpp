// Reference for swiglu: x = [a, b] along the last dimension, y = silu(a) * b.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank == 0 || x.dims[x.rank - 1] % 2 != 0) return call.fail("the last dimension of x must be even");
  const int64_t h = x.dims[x.rank - 1] / 2;
  const int64_t rows = x.size / (2 * h);
  if (y.size != rows * h) return call.fail("y must hold half of x's elements");
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < h; ++c) {
      const real a = static_cast<real>(x.data[r * 2 * h + c]);
      const real b = static_cast<real>(x.data[r * 2 * h + h + c]);
      y.data[r * h + c] = a / (real(1) + std::exp(-a)) * b;
    }
  }
  return 0;
}
