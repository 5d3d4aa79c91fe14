// SelectReduceMaxDSubExpReduceSumDRealDiv: a fused select + softmax.
//   c = sel ? input1 : input2                        (elementwise, sel a bool tensor)
//   ouput = exp(c - max(c)) / sum(exp(c - max(c)))   (softmax over the last axis, per row)
// All three inputs share one shape; the output has it too.
#include <cmath>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& sel = call.input("sel");
  const AocGoldenTensor& a = call.input("input1");
  const AocGoldenTensor& b = call.input("input2");
  AocGoldenTensor& out = call.output("ouput");
  if (sel.size != out.size || a.size != out.size || b.size != out.size)
    return call.fail("sel, input1, input2 and ouput must have one element count");
  const int64_t n = golden_api::Call::last_dim(out);
  if (n <= 0) return 0;
  const int64_t rows = out.size / n;
  std::vector<real> c(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = r * n;
    real m = -INFINITY;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t k = base + j;
      c[j] = sel.data[k] != 0 ? static_cast<real>(a.data[k]) : static_cast<real>(b.data[k]);
      if (c[j] > m) m = c[j];
    }
    real s = 0;
    for (int64_t j = 0; j < n; ++j) {
      c[j] = std::exp(c[j] - m);
      s += c[j];
    }
    for (int64_t j = 0; j < n; ++j) out.data[base + j] = c[j] / s;
  }
  return 0;
}
