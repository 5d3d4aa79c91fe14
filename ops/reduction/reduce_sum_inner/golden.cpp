// Reference for reduce_sum_inner: the sum over the `axis` attribute's axis, which is not
// the last one (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  int64_t axis = call.attr_int("axis", 1);
  if (axis < 0) axis += x.rank;
  if (axis < 0 || axis + 1 >= x.rank) return call.fail("axis must name an axis of x other than the last");
  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[d];
  for (int64_t d = axis + 1; d < x.rank; ++d) inner *= x.dims[d];
  const int64_t reduce = x.dims[axis];
  if (y.size != outer * inner) return call.fail("y must have x's shape without the reduced axis");
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t b = 0; b < inner; ++b) {
      real sum = 0;
      for (int64_t r = 0; r < reduce; ++r) sum += static_cast<real>(x.data[(a * reduce + r) * inner + b]);
      y.data[a * inner + b] = sum;
    }
  }
  return 0;
}
