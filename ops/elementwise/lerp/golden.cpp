// Reference for lerp: y = start + weight * (end - start) (in golden_api::real: double for the reference).
#include <algorithm>
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& start_t = call.input("start");
  const AocGoldenTensor& end_t = call.input("end");
  AocGoldenTensor& out = call.output("y");
  const real weight = call.attr_float("weight", 0.5);
  if (end_t.size != start_t.size) return call.fail("end must have as many elements as start");
  for (int64_t i = 0; i < out.size; ++i) {
    const real start = static_cast<real>(start_t.data[i]);
    const real end = static_cast<real>(end_t.data[i]);
    out.data[i] = start + weight * (end - start);
  }
  return 0;
}
