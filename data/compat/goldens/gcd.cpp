// Reference for gcd: y = gcd(x1, x2) elementwise, the greatest common divisor of the absolute
// values (gcd(a, 0) = |a|, gcd(0, 0) = 0), x2 broadcast to x1's shape by NumPy's rules (shapes
// aligned at the last dimension, a dimension of 1 repeated). The output has x1's shape.
#include <cstdint>
#include <numeric>
#include <vector>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  const int rank = a.rank;
  if (b.rank > rank) return call.fail("x2 has more dimensions than x1");
  // Strides of x2 over x1's index space: 0 where x2 has size 1 (or no such dimension).
  std::vector<int64_t> bstride(static_cast<size_t>(rank), 0);
  int64_t s = 1;
  for (int d = rank - 1, e = b.rank - 1; d >= 0; --d, --e) {
    if (e < 0) continue;
    const int64_t bd = b.dims[e];
    if (bd != 1 && bd != a.dims[d]) return call.fail("x2 does not broadcast to x1's shape");
    bstride[static_cast<size_t>(d)] = bd == 1 ? 0 : s;
    s *= bd;
  }
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  int64_t boff = 0;
  for (int64_t i = 0; i < y.size; ++i) {
    const auto p = static_cast<long long>(a.data[i]);
    const auto q = static_cast<long long>(b.data[boff]);
    y.data[i] = static_cast<double>(std::gcd(p, q));
    for (int d = rank - 1; d >= 0; --d) {  // advance the multi-index of x1 and x2's offset
      const auto du = static_cast<size_t>(d);
      boff += bstride[du];
      if (++idx[du] < a.dims[d]) break;
      boff -= bstride[du] * a.dims[d];
      idx[du] = 0;
    }
  }
  return 0;
}
