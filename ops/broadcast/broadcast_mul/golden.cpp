// Reference for broadcast_mul: y[..., c, l] = x[..., c, l] * scale[c, 0] (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& scale = call.input("scale");
  AocGoldenTensor& y = call.output("y");
  if (x.rank < 2) return call.fail("x must have rank 2 or more: [..., C, L]");
  const int64_t cols = x.dims[x.rank - 1];
  const int64_t channels = x.dims[x.rank - 2];
  if (scale.size != channels) return call.fail("scale must hold one value per channel of x: [C, 1]");
  for (int64_t i = 0; i < y.size; ++i) {
    const int64_t c = (i / cols) % channels;
    y.data[i] = static_cast<real>(x.data[i]) * static_cast<real>(scale.data[c]);
  }
  return 0;
}
