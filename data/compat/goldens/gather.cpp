// Golden for gather (TF GatherV2 with axis = batch_dims): for every batch b over the first
// batch_dims axes of x and every index position j, the slice x[b, indices[b, j], ...] is copied to
// y[b, j, ...]. Indices are read per batch from the flat indices tensor.
#include <string>
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x1");
  const AocGoldenTensor& idx = call.input("indices");
  AocGoldenTensor& y = call.output("y");
  int64_t bd = call.attr_int("batch_dims", 0);
  if (bd < 0) bd += x.rank;
  if (bd < 0 || bd >= x.rank) return call.fail("batch_dims out of range");
  int64_t batches = 1;
  for (int64_t d = 0; d < bd; ++d) batches *= x.dims[d];
  const int64_t axis_len = x.dims[bd];
  const int64_t batch_len = x.size / batches;
  const int64_t slice = batch_len / axis_len;
  const int64_t per_batch = idx.size / batches;
  if (batches * per_batch * slice != y.size) return call.fail("y does not hold the gathered slices");
  int64_t out = 0;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t j = 0; j < per_batch; ++j) {
      const int64_t k = static_cast<int64_t>(idx.data[b * per_batch + j]);
      if (k < 0 || k >= axis_len) return call.fail("index " + std::to_string(k) + " outside the gathered axis");
      const double* src = x.data + b * batch_len + k * slice;
      for (int64_t e = 0; e < slice; ++e) y.data[out++] = src[e];
    }
  }
  return 0;
}
