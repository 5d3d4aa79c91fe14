#include <algorithm>
#include <cmath>
#include <numeric>
#include "aoc_golden.h"
using golden_api::real;
extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& t0 = call.input("x");
  const AocGoldenTensor& t1 = call.input("y");
  AocGoldenTensor& o = call.output("z");
  for (int64_t i = 0; i < o.size; ++i) {
    const real a0 = static_cast<real>(t0.data[t0.size == o.size ? i : i % t0.size]);
    const real a1 = static_cast<real>(t1.data[t1.size == o.size ? i : i % t1.size]);
    o.data[i] = a0 + a1;
  }
  return 0;
}
