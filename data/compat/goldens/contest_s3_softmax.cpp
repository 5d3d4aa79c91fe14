// Softmax of x along the axis `dim` (default -1, the last axis):
//   y = exp(x - max(x)) / sum(exp(x - max(x))), the max and the sum taken along `dim`.
#include <algorithm>
#include <cmath>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int32_t rank = x.rank == 0 ? 1 : x.rank;
  int64_t dim = call.attr_int("dim", -1);
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) return call.fail("dim out of range");
  int64_t outer = 1, len = 1, inner = 1;
  for (int32_t d = 0; d < x.rank; ++d) {
    if (d < dim) outer *= x.dims[d];
    else if (d == dim) len = x.dims[d];
    else inner *= x.dims[d];
  }
  if (x.rank == 0) len = 1;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      real m = -INFINITY;
      bool nan = false;
      for (int64_t k = 0; k < len; ++k) {
        const real v = static_cast<real>(x.data[base + k * inner]);
        if (std::isnan(v)) nan = true;
        m = std::max(m, v);
      }
      real sum = 0;
      for (int64_t k = 0; k < len; ++k) {
        const real e = std::exp(static_cast<real>(x.data[base + k * inner]) - m);
        y.data[base + k * inner] = e;
        sum += e;
      }
      for (int64_t k = 0; k < len; ++k) {
        y.data[base + k * inner] = nan ? static_cast<real>(NAN) : static_cast<real>(y.data[base + k * inner]) / sum;
      }
    }
  }
  return 0;
}
