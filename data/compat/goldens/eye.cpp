// Golden for eye: writes an identity pattern into the tensor y (an in-place operator: the
// output is the input y with ones on the main diagonal of each num_rows x num_columns matrix).
// num_columns = 0 means num_columns = num_rows. For a tensor of rank > 2 the flat data is a batch
// of size / (num_rows * num_columns) matrices; for rank <= 2 it is one matrix.
#include <algorithm>
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("y");
  AocGoldenTensor& y = call.output("y");
  if (x.size != y.size) return call.fail("input and output y must have one size");
  const int64_t rows = call.attr_int("num_rows", 0);
  int64_t cols = call.attr_int("num_columns", 0);
  if (cols == 0) cols = rows;
  if (rows <= 0 || cols <= 0) return call.fail("num_rows must be positive");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = x.data[i];
  const int64_t mat = rows * cols;
  const int64_t batches = x.rank > 2 ? y.size / mat : 1;
  if (batches * mat > y.size) return call.fail("num_rows x num_columns exceeds the tensor");
  const int64_t diag = std::min(rows, cols);
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < diag; ++i) y.data[b * mat + i * cols + i] = 1.0;
  return 0;
}
