// y = triu(x, diagonal) over the last two axes of x (torch.triu): keeps x[..., r, c] where c - r >= diagonal (on and above the diagonal-th diagonal), zero elsewhere.
// Leading axes are batch axes.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank < 2) return call.fail("triu needs a tensor of rank 2 or more");
  const int64_t diag = call.attr_int("diagonal", 0);
  const int64_t rows = x.dims[x.rank - 2], cols = x.dims[x.rank - 1];
  for (int64_t i = 0; i < y.size; ++i) {
    const int64_t c = i % cols, r = (i / cols) % rows;
    y.data[i] = (c - r >= diag) ? x.data[i] : 0.0;
  }
  return 0;
}
