// Reference for dequantize_per_channel: y = (x + offset[c]) * scale[c] (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& scale = call.input("scale");
  const AocGoldenTensor& offset = call.input("offset");
  AocGoldenTensor& y = call.output("y");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (scale.size != cols || offset.size != cols) return call.fail("scale and offset must have the last axis's length");
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      y.data[r * cols + c] =
          (static_cast<real>(x.data[r * cols + c]) + static_cast<real>(offset.data[c])) * static_cast<real>(scale.data[c]);
  return 0;
}
