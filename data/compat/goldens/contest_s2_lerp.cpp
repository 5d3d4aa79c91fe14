// y = start + weight * (end - start), elementwise, with NumPy-style broadcasting of start, end
// and weight to the output shape.
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& s = call.input("start");
  const AocGoldenTensor& e = call.input("end");
  const AocGoldenTensor& w = call.input("weight");
  AocGoldenTensor& y = call.output("y");
  golden_api::Broadcast at(y);
  for (int64_t i = 0; i < y.size; ++i, at.next()) {
    const real a = static_cast<real>(s.data[at.offset(s)]);
    const real b = static_cast<real>(e.data[at.offset(e)]);
    const real t = static_cast<real>(w.data[at.offset(w)]);
    y.data[i] = a + t * (b - a);
  }
  return 0;
}
