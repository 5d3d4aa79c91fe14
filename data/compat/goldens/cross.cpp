// Golden for cross: the vector (cross) product of x1 and x2 along one axis of length 3.
// x2 broadcasts to x1's shape (same rank; a dimension of 1 repeats). The axis is the `dim`
// attribute (negative counts from the end); when it is still negative after adding the rank
// (the default -65530), the first axis where both inputs have length 3 is used, as torch.cross
// does without a dim.
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  const int32_t rank = y.rank;
  if (a.rank != rank || b.rank != rank) return call.fail("x1, x2 and y must have the same rank");
  int64_t axis = call.attr_int("dim", -65530);
  if (axis < 0) axis += rank;
  if (axis < 0) {
    for (int32_t d = 0; d < rank; ++d) {
      if (a.dims[d] == 3 && b.dims[d] == 3) { axis = d; break; }
    }
  }
  if (axis < 0 || axis >= rank || y.dims[axis] != 3) return call.fail("no axis of length 3 for the cross product");
  for (int32_t d = 0; d < rank; ++d) {
    if (a.dims[d] != y.dims[d]) return call.fail("y must have x1's shape");
    if (b.dims[d] != 1 && b.dims[d] != y.dims[d]) return call.fail("x2 does not broadcast to x1");
  }
  // Strides of y/x1 and of x2 (0 where x2 repeats).
  std::vector<int64_t> ystride(rank), bstride(rank);
  int64_t sy = 1, sb = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    ystride[d] = sy;
    bstride[d] = b.dims[d] == 1 ? 0 : sb;
    sy *= y.dims[d];
    sb *= b.dims[d];
  }
  std::vector<int64_t> idx(rank, 0);
  const int64_t comps = y.size / 3;
  for (int64_t n = 0; n < comps; ++n) {
    int64_t ya = 0, bo = 0;
    for (int32_t d = 0; d < rank; ++d) {
      ya += idx[d] * ystride[d];
      bo += idx[d] * bstride[d];
    }
    const int64_t ys = ystride[axis], bs = bstride[axis];
    const real a1 = a.data[ya], a2 = a.data[ya + ys], a3 = a.data[ya + 2 * ys];
    const real b1 = b.data[bo], b2 = b.data[bo + bs], b3 = b.data[bo + 2 * bs];
    y.data[ya] = a2 * b3 - a3 * b2;
    y.data[ya + ys] = a3 * b1 - a1 * b3;
    y.data[ya + 2 * ys] = a1 * b2 - a2 * b1;
    // next index, skipping the cross axis
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (d == axis) continue;
      if (++idx[d] < y.dims[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}
