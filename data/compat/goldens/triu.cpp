#include "aoc_golden.h"
extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t d = call.attr_int("diagonal", 0);
  const int64_t cols = x.dims[x.rank - 1], rows = x.rank > 1 ? x.dims[x.rank - 2] : 1;
  for (int64_t i = 0; i < y.size; ++i) {
    const int64_t c = i % cols, r = (i / cols) % rows;
    y.data[i] = (c - r >= d) ? x.data[i] : 0.0;
  }
  return 0;
}
