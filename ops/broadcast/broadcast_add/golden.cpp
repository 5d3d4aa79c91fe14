// Reference for broadcast_add: y[r, c] = x[r, c] + bias[c] (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& bias = call.input("bias");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  if (bias.size != cols) return call.fail("bias must have as many elements as the last dimension of x");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = static_cast<real>(x.data[i]) + static_cast<real>(bias.data[i % cols]);
  return 0;
}
