// Reference for concat along the last axis of two tensors with the same leading axes.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("a");
  const AocGoldenTensor& b = call.input("b");
  AocGoldenTensor& y = call.output("y");
  const int64_t ca = golden_api::Call::last_dim(a), cb = golden_api::Call::last_dim(b);
  const int64_t rows = golden_api::Call::rows(a);
  if (golden_api::Call::rows(b) != rows) return call.fail("a and b must have the same leading axes");
  if (y.size != rows * (ca + cb)) return call.fail("y must be [..., Ca + Cb]");
  for (int64_t r = 0; r < rows; ++r) {
    double* out = y.data + r * (ca + cb);
    for (int64_t c = 0; c < ca; ++c) out[c] = a.data[r * ca + c];
    for (int64_t c = 0; c < cb; ++c) out[ca + c] = b.data[r * cb + c];
  }
  return 0;
}
