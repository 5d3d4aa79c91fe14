// Reference for transpose of the last two axes: y[..., j, i] = x[..., i, j].
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank < 2) return call.fail("x must have at least 2 dimensions");
  const int64_t rows = x.dims[x.rank - 2];
  const int64_t cols = x.dims[x.rank - 1];
  const int64_t batch = x.size / (rows * cols);
  for (int64_t b = 0; b < batch; ++b) {
    const double* in = x.data + b * rows * cols;
    double* out = y.data + b * rows * cols;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) out[j * rows + i] = in[i * cols + j];
  }
  return 0;
}
