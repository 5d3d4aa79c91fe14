// jx_s7_fmax: out = fmax(input, other) elementwise (torch.fmax): the larger of the two, and where
// exactly one of them is NaN the other one (NaN only where both are). Integers and bool: max.
// Read through NumPy broadcasting (the kernel itself takes equal shapes).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& a = call.input("input");
  const AocGoldenTensor& b = call.input("other");
  AocGoldenTensor& out = call.output("out");
  golden_api::Broadcast at(out);
  if (!at.fits(a) || !at.fits(b)) return call.fail("input and other do not broadcast to out's shape");
  for (int64_t i = 0; i < out.size; ++i, at.next()) {
    const real x = static_cast<real>(a.data[at.offset(a)]);
    const real y = static_cast<real>(b.data[at.offset(b)]);
    out.data[i] = std::fmax(x, y);
  }
  return 0;
}
