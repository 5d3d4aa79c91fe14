// y = start + weight * (end - start), elementwise, with NumPy-style broadcasting of start, end
// and weight to the output shape.
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
  const AocGoldenTensor& s = call.input("start");
  const AocGoldenTensor& e = call.input("end");
  const AocGoldenTensor& w = call.input("weight");
  AocGoldenTensor& y = call.output("y");
  std::vector<int64_t> idx(y.rank > 0 ? y.rank : 1, 0);
  for (int64_t i = 0; i < y.size; ++i) {
    int64_t rem = i;
    for (int32_t d = y.rank - 1; d >= 0; --d) {
      idx[d] = rem % y.dims[d];
      rem /= y.dims[d];
    }
    const real a = static_cast<real>(s.data[s.size == y.size ? i : bcast_offset(s, idx, y.rank)]);
    const real b = static_cast<real>(e.data[e.size == y.size ? i : bcast_offset(e, idx, y.rank)]);
    const real t = static_cast<real>(w.data[w.size == y.size ? i : bcast_offset(w, idx, y.rank)]);
    y.data[i] = a + t * (b - a);
  }
  return 0;
}
