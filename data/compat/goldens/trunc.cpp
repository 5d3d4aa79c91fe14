#include <algorithm>
#include <cmath>
#include <numeric>
#include "aoc_golden.h"
using golden_api::real;
extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& t0 = call.input("input_x");
  AocGoldenTensor& o = call.output("output_y");
  for (int64_t i = 0; i < o.size; ++i) {
    const real a0 = static_cast<real>(t0.data[t0.size == o.size ? i : i % t0.size]);
    o.data[i] = std::trunc(a0);
  }
  return 0;
}
