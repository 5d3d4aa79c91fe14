// Reference for index_select: y[..., k, ...] = x[..., indices[k], ...] along axis `dim`,
// zeros for an index outside the axis.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& idx = call.input("indices");
  AocGoldenTensor& y = call.output("y");
  const int64_t dim = call.attr_int("dim", 0);
  if (dim < 0 || dim >= x.rank) return call.fail("dim must name an axis of x");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.dims[d];
  for (int64_t d = dim + 1; d < x.rank; ++d) inner *= x.dims[d];
  const int64_t n = x.dims[dim], k = idx.size;
  if (y.size != outer * k * inner) return call.fail("y must have x's shape with dim's length len(indices)");
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < k; ++j) {
      const int64_t src = static_cast<int64_t>(idx.data[j]);
      double* out = y.data + (o * k + j) * inner;
      if (src < 0 || src >= n) {
        for (int64_t i = 0; i < inner; ++i) out[i] = 0.0;
        continue;
      }
      const double* in = x.data + (o * n + src) * inner;
      for (int64_t i = 0; i < inner; ++i) out[i] = in[i];
    }
  return 0;
}
