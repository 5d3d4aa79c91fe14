// Reference for global_avg_pool: y[n, c, 0, 0] = mean of x[n, c, :, :] (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank != 4) return call.fail("x must be [N, C, H, W]");
  const int64_t rows = x.dims[0] * x.dims[1];
  const int64_t plane = x.dims[2] * x.dims[3];
  if (y.size != rows) return call.fail("y must hold one element per (n, c)");
  for (int64_t r = 0; r < rows; ++r) {
    real sum = 0;
    for (int64_t i = 0; i < plane; ++i) sum += static_cast<real>(x.data[r * plane + i]);
    y.data[r] = sum / static_cast<real>(plane);
  }
  return 0;
}
