// Reference for quantize_per_channel: y = saturate_int8(round_half_even(x * scale[c] + offset[c])).
// y is compared exactly, so the golden follows the float32 arithmetic that defines the
// operator (the product and the sum each rounded to float32): a double computation would
// differ from it near .5 ties. x (fp16/bf16/fp32) is exact in float32.
#include <cmath>

#include "aoc_golden.h"

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
    for (int64_t c = 0; c < cols; ++c) {
      float v = static_cast<float>(x.data[r * cols + c]) * static_cast<float>(scale.data[c]);
      v = v + static_cast<float>(offset.data[c]);
      double q = std::nearbyint(static_cast<double>(v));
      q = q < -128.0 ? -128.0 : (q > 127.0 ? 127.0 : q);
      y.data[r * cols + c] = q;
    }
  return 0;
}
