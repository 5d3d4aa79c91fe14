// Reference for heaviside (torch.heaviside, which the operator's docs point to):
//   out = values where input == 0, 1 where input > 0, 0 where input < 0 (and where input is NaN,
//   as torch computes input == 0 ? values : input > 0).
// input and values broadcast against each other by NumPy's rules; out has the broadcast shape.
#include <cstdint>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("input");
  const AocGoldenTensor& v = call.input("values");
  AocGoldenTensor& out = call.output("out");
  golden_api::Broadcast at(out);
  if (!at.fits(x) || !at.fits(v)) return call.fail("input and values do not broadcast to the output's shape");
  for (int64_t i = 0; i < out.size; ++i, at.next()) {
    const double a = x.data[at.offset(x)];
    out.data[i] = a == 0.0 ? v.data[at.offset(v)] : (a > 0.0 ? 1.0 : 0.0);
  }
  return 0;
}
