// Reference for log_softmax over the last axis (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    double* out = y.data + r * cols;
    const real m = static_cast<real>(*std::max_element(in, in + cols));
    real sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(static_cast<real>(in[c]) - m);
    const real logSum = std::log(sum);
    for (int64_t c = 0; c < cols; ++c) out[c] = (static_cast<real>(in[c]) - m) - logSum;
  }
  return 0;
}
