// Golden for strideslice_neg_concat_v2: along the last axis (C channels), the first C/2 values
// are kept and the second C/2 negated: y = concat(x[..., :C/2], -x[..., C/2:]).
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("input");
  AocGoldenTensor& y = call.output("output");
  const int64_t c = golden_api::Call::last_dim(x);
  const int64_t half = c / 2;
  for (int64_t i = 0; i < y.size; ++i) {
    const double v = x.data[i];
    y.data[i] = (i % c) < half ? v : -v;
  }
  return 0;
}
