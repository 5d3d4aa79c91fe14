// Reference for clip_by_value (TensorFlow's tf.clip_by_value, which the operator's example takes
// as its reference): y = max(min(x, clip_value_max), clip_value_min), elementwise, with
// clip_value_min and clip_value_max single values broadcast over x. The order matters only when
// clip_value_min > clip_value_max: the result is then clip_value_min everywhere, as in TensorFlow.
// A NaN in x or in either bound gives NaN, as TensorFlow's minimum and maximum propagate NaN.
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& lo = call.input("clip_value_min");
  const AocGoldenTensor& hi = call.input("clip_value_max");
  AocGoldenTensor& y = call.output("y");
  if (lo.size < 1 || hi.size < 1) return call.fail("clip_value_min and clip_value_max need one element");
  const real vmin = static_cast<real>(lo.data[0]);
  const real vmax = static_cast<real>(hi.data[0]);
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    if (std::isnan(v) || std::isnan(vmin) || std::isnan(vmax)) {
      y.data[i] = NAN;
      continue;
    }
    y.data[i] = std::max(std::min(v, vmax), vmin);
  }
  return 0;
}
