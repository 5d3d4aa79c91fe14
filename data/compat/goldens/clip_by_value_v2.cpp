// ClipByValueV2: y = min(max(x, clip_value_min), clip_value_max) elementwise. The bounds are single
// values (element 0 of each one-element tensor) applied to every element of x. The lower bound is
// applied first, so where clip_value_min > clip_value_max every element becomes clip_value_max.
// NaN in x or in a bound propagates to the result.
#include <algorithm>
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& lo_t = call.input("clip_value_min");
  const AocGoldenTensor& hi_t = call.input("clip_value_max");
  AocGoldenTensor& y = call.output("y");
  if (lo_t.size < 1 || hi_t.size < 1) return call.fail("clip_value_min and clip_value_max must hold a value");
  const real lo = static_cast<real>(lo_t.data[0]);
  const real hi = static_cast<real>(hi_t.data[0]);
  for (int64_t i = 0; i < y.size; ++i) {
    const real v = static_cast<real>(x.data[i]);
    if (std::isnan(v) || std::isnan(lo) || std::isnan(hi)) {
      y.data[i] = NAN;
      continue;
    }
    const real raised = v < lo ? lo : v;
    y.data[i] = raised > hi ? hi : raised;
  }
  return 0;
}
