// Reference for triu: y[..., i, j] = x[..., i, j] if j - i >= diagonal else 0.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t diagonal = call.attr_int("diagonal", 0);
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t matRows = x.rank >= 2 ? x.dims[x.rank - 2] : 1;
  for (int64_t k = 0; k < x.size; ++k) {
    const int64_t i = (k / cols) % matRows;
    const int64_t j = k % cols;
    y.data[k] = j - i >= diagonal ? x.data[k] : 0.0;
  }
  return 0;
}
