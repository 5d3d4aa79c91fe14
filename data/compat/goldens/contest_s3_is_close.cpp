// y = isclose(x1, x2) elementwise (torch.isclose): |x1 - x2| <= atol + rtol * |x2|, a bool
// tensor, with NumPy-style broadcasting of x1 and x2 to the output shape. Equal values
// (infinities of one sign included) are close; NaN is close to nothing unless equal_nan, in
// which case two NaNs are close. The test is evaluated in float32, as torch evaluates it for
// float32 tensors: the threshold rtol * |x2| + atol and the difference are float32 numbers, so a
// difference that lands on the threshold is decided the way a float computation decides it.
#include <cmath>
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("x1");
  const AocGoldenTensor& b = call.input("x2");
  AocGoldenTensor& y = call.output("y");
  const float rtol = static_cast<float>(call.attr_float("rtol", 1e-5));
  const float atol = static_cast<float>(call.attr_float("atol", 1e-8));
  const bool equal_nan = call.attr_bool("equal_nan", false);
  golden_api::Broadcast at(y);
  for (int64_t i = 0; i < y.size; ++i, at.next()) {
    const float u = static_cast<float>(a.data[at.offset(a)]);
    const float v = static_cast<float>(b.data[at.offset(b)]);
    bool close;
    if (std::isnan(u) || std::isnan(v)) {
      close = equal_nan && std::isnan(u) && std::isnan(v);
    } else if (u == v) {
      close = true;
    } else if (std::isinf(u) || std::isinf(v)) {
      close = false;
    } else {
      const float diff = std::fabs(u - v);
      const float thr = atol + rtol * std::fabs(v);
      close = diff <= thr;
    }
    y.data[i] = close ? 1.0 : 0.0;
  }
  return 0;
}
