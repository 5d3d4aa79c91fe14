// Reference for gather along axis 0: y[n, :] = x[indices[n], :]; an index outside
// [0, V) gives a zero row.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& indices = call.input("indices");
  AocGoldenTensor& y = call.output("y");
  if (x.rank != 2 || indices.rank != 1) return call.fail("x must be 2-D and indices 1-D");
  const int64_t tableRows = x.dims[0];
  const int64_t cols = x.dims[1];
  for (int64_t n = 0; n < indices.size; ++n) {
    const int64_t row = static_cast<int64_t>(indices.data[n]);
    const bool valid = row >= 0 && row < tableRows;
    for (int64_t c = 0; c < cols; ++c) y.data[n * cols + c] = valid ? x.data[row * cols + c] : 0.0;
  }
  return 0;
}
