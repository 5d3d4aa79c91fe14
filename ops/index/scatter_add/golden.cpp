// Reference for scatter_add along axis 0: out = self; out[index[n]] += src[n] in
// increasing n (in golden_api::real: double for the reference). Indices outside [0, M)
// add nothing.
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& self = call.input("self");
  const AocGoldenTensor& index = call.input("index");
  const AocGoldenTensor& src = call.input("src");
  AocGoldenTensor& out = call.output("out");
  if (self.rank != 2 || src.rank != 2 || index.rank != 1) return call.fail("self and src must be 2-D, index 1-D");
  const int64_t rows = self.dims[0];
  const int64_t cols = self.dims[1];
  if (src.dims[0] != index.dims[0] || src.dims[1] != cols) return call.fail("src must be [len(index), D]");
  for (int64_t k = 0; k < out.size; ++k) out.data[k] = self.data[k];
  for (int64_t n = 0; n < index.size; ++n) {
    const int64_t row = static_cast<int64_t>(index.data[n]);
    if (row < 0 || row >= rows) continue;
    for (int64_t c = 0; c < cols; ++c) {
      out.data[row * cols + c] = static_cast<real>(out.data[row * cols + c]) + static_cast<real>(src.data[n * cols + c]);
    }
  }
  return 0;
}
