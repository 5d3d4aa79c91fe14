// Reference for dynamic_quant, per row r of x viewed as [rows, last dim]:
//   scale[r] = max|x[r, :]| / 127 (in real: double for the reference),
//   y[r, c] = round-half-even(x[r, c] * (127 / max|x[r, :]|)) as int8, 0 for an all-zero row.
// y is compared exactly, so it follows the float32 arithmetic that defines the operator
// (production computes the multiplier and the product in float32): a double product would
// differ from it near .5 ties and flip those elements by one. The maximum itself is exact
// in float (every fp16/bf16 value is), so only the division and the product round.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  AocGoldenTensor& scale = call.output("scale");
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (scale.size != rows) return call.fail("scale must hold one value per row of x");
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = x.data + r * cols;
    real max_abs = 0;
    for (int64_t c = 0; c < cols; ++c) max_abs = std::fmax(max_abs, std::fabs(static_cast<real>(row[c])));
    scale.data[r] = max_abs / static_cast<real>(127);
    const float inv = max_abs > 0 ? 127.0f / static_cast<float>(max_abs) : 0.0f;
    for (int64_t c = 0; c < cols; ++c) {
      const float v = static_cast<float>(row[c]) * inv;
      y.data[r * cols + c] = std::nearbyint(static_cast<double>(v));
    }
  }
  return 0;
}
