// y = (x1 != x2) elementwise (TensorFlow NotEqual), a bool tensor, with NumPy-style broadcasting
// of x1 and x2 to the output shape. NaN compares unequal to everything, itself included.
#include <cmath>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

// Offset into `t` of the output element at multi-index `idx` (right-aligned broadcasting).
static int64_t bcast_offset(const AocGoldenTensor& t, const std::vector<int64_t>& idx, int32_t orank) {
  int64_t off = 0, stride = 1;
  for (int32_t d = t.rank - 1; d >= 0; --d) {
    const int32_t od = orank - (t.rank - d);
    const int64_t i = t.dims[d] == 1 ? 0 : idx[od];
    off += i * stride;
    stride *= t.dims[d];
  }
  return off;
}

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  std::vector<int64_t> idx(y.rank > 0 ? y.rank : 1, 0);
  for (int64_t i = 0; i < y.size; ++i) {
    int64_t rem = i;
    for (int32_t d = y.rank - 1; d >= 0; --d) {
      idx[d] = rem % y.dims[d];
      rem /= y.dims[d];
    }
    const double x = a.data[a.size == y.size ? i : bcast_offset(a, idx, y.rank)];
    const double z = b.data[b.size == y.size ? i : bcast_offset(b, idx, y.rank)];
    y.data[i] = (x != z) ? 1.0 : 0.0;
  }
  return 0;
}
