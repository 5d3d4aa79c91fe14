// Reference for heaviside (torch.heaviside, which the operator's docs point to):
//   out = values where input == 0, 1 where input > 0, 0 where input < 0 (and where input is NaN,
//   as torch computes input == 0 ? values : input > 0).
// input and values broadcast against each other by NumPy's rules; out has the broadcast shape.
#include <cstdint>
#include <vector>

#include "aoc_golden.h"

namespace {
// Strides of tensor t over the output's index space (0 along broadcast dimensions).
bool broadcast_strides(const AocGoldenTensor& t, const AocGoldenTensor& out, std::vector<int64_t>& st) {
  st.assign(static_cast<size_t>(out.rank), 0);
  int64_t s = 1;
  for (int d = out.rank - 1, e = t.rank - 1; d >= 0; --d, --e) {
    if (e < 0) continue;
    const int64_t td = t.dims[e];
    if (td != 1 && td != out.dims[d]) return false;
    st[static_cast<size_t>(d)] = td == 1 ? 0 : s;
    s *= td;
  }
  return true;
}
}  // namespace

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("input");
  const AocGoldenTensor& v = call.input("values");
  AocGoldenTensor& out = call.output("out");
  std::vector<int64_t> xs, vs;
  if (!broadcast_strides(x, out, xs) || !broadcast_strides(v, out, vs))
    return call.fail("input and values do not broadcast to the output's shape");
  std::vector<int64_t> idx(static_cast<size_t>(out.rank), 0);
  int64_t xo = 0, vo = 0;
  for (int64_t i = 0; i < out.size; ++i) {
    const double a = x.data[xo];
    out.data[i] = a == 0.0 ? v.data[vo] : (a > 0.0 ? 1.0 : 0.0);
    for (int d = out.rank - 1; d >= 0; --d) {
      const auto du = static_cast<size_t>(d);
      xo += xs[du];
      vo += vs[du];
      if (++idx[du] < out.dims[d]) break;
      xo -= xs[du] * out.dims[d];
      vo -= vs[du] * out.dims[d];
      idx[du] = 0;
    }
  }
  return 0;
}
