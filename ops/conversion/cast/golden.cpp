// Reference for cast: y = x. The runner rounds the reference to the output dtype the way
// the kernel converts: round to nearest even for float16/bfloat16/float32 (overflow to
// inf), and for int8 round to nearest even, saturate to [-128, 127], NaN -> 0.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  for (int64_t i = 0; i < y.size; ++i) y.data[i] = x.data[i];
  return 0;
}
