// y = xlogy(x1, x2) = x1 * ln(x2), elementwise, with y = 0 where x1 == 0 (unless x2 is NaN),
// as torch.xlogy / TensorFlow Xlogy define it; NumPy-style broadcasting of x1 and x2.
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
    const real x = static_cast<real>(a.data[a.size == y.size ? i : bcast_offset(a, idx, y.rank)]);
    const real z = static_cast<real>(b.data[b.size == y.size ? i : bcast_offset(b, idx, y.rank)]);
    y.data[i] = (x == 0 && !std::isnan(z)) ? real(0) : x * std::log(z);
  }
  return 0;
}
