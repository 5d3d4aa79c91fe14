// Golden for expand_v2: y = x broadcast to the attribute `shape` (torch.Tensor.expand / TF
// BroadcastTo): NumPy's rules, dimensions aligned from the right, a dimension of 1 repeats.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  golden_api::Broadcast at(y);
  if (!at.fits(x)) return call.fail("x does not broadcast to the attribute shape");
  for (int64_t i = 0; i < y.size; ++i, at.next()) y.data[i] = x.data[at.offset(x)];
  return 0;
}
