// GlobalAvgPool (ONNX / CANN): x of shape [N, C, d2, ..., dk] -> y of shape [N, C, 1, ..., 1],
// y[n, c] = mean of x[n, c, ...] over every spatial position. Accumulated in golden_api::real.
#include <cstdint>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank < 2) return call.fail("global_avg_pool needs x of rank >= 2 ([N, C, spatial...])");
  const int64_t planes = x.dims[0] * x.dims[1];
  if (planes <= 0 || y.size != planes) return call.fail("y must hold one value per (n, c) plane of x");
  const int64_t area = x.size / planes;
  for (int64_t p = 0; p < planes; ++p) {
    const double* src = x.data + p * area;
    real acc = 0;
    for (int64_t k = 0; k < area; ++k) acc += static_cast<real>(src[k]);
    y.data[p] = static_cast<double>(acc / static_cast<real>(area));
  }
  return 0;
}
