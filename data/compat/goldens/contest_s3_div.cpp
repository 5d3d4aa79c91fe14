// z = x1 / x2 elementwise (TensorFlow's Div), with NumPy-style broadcasting of x1 and x2 to the
// output shape. Floating types divide exactly (the runner rounds to the output dtype once);
// integer types (int32, int8) divide with truncation toward zero, as C and TF's Div do.
// The golden sees doubles and no dtype, so integer inputs are recognised by every value of both
// inputs being an integer (float cases draw non-integral values).
#include <cmath>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

static bool all_integral(const AocGoldenTensor& t) {
  for (int64_t i = 0; i < t.size; ++i)
    if (!std::isfinite(t.data[i]) || t.data[i] != std::trunc(t.data[i])) return false;
  return true;
}

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
  AocGoldenTensor& z = call.output("z");
  const bool integral = all_integral(a) && all_integral(b);
  std::vector<int64_t> idx(z.rank > 0 ? z.rank : 1, 0);
  for (int64_t i = 0; i < z.size; ++i) {
    int64_t rem = i;
    for (int32_t d = z.rank - 1; d >= 0; --d) {
      idx[d] = rem % z.dims[d];
      rem /= z.dims[d];
    }
    const real x = static_cast<real>(a.data[a.size == z.size ? i : bcast_offset(a, idx, z.rank)]);
    const real y = static_cast<real>(b.data[b.size == z.size ? i : bcast_offset(b, idx, z.rank)]);
    z.data[i] = integral ? std::trunc(static_cast<double>(x) / static_cast<double>(y)) : x / y;
  }
  return 0;
}
