// Reference for embedding lookup: y[..., :] = weight[ids[...], :]; an id outside [0, V)
// gives a zero row.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& weight = call.input("weight");
  const AocGoldenTensor& ids = call.input("ids");
  AocGoldenTensor& y = call.output("y");
  if (weight.rank != 2) return call.fail("weight must be 2-D [V, D]");
  const int64_t tableRows = weight.dims[0];
  const int64_t cols = weight.dims[1];
  for (int64_t n = 0; n < ids.size; ++n) {
    const int64_t row = static_cast<int64_t>(ids.data[n]);
    const bool valid = row >= 0 && row < tableRows;
    for (int64_t c = 0; c < cols; ++c) y.data[n * cols + c] = valid ? weight.data[row * cols + c] : 0.0;
  }
  return 0;
}
