#include <cstring>
#include "aoc_golden.h"
extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& p = call.input("predict");
  const AocGoldenTensor& l = call.input("label");
  AocGoldenTensor& y = call.output("y");
  const char* red = call.attr_str("reduction", "mean");
  if (std::strcmp(red, "none") == 0) {
    for (int64_t i = 0; i < y.size; ++i) y.data[i] = (p.data[i] - l.data[i]) * (p.data[i] - l.data[i]);
    return 0;
  }
  double s = 0;
  for (int64_t i = 0; i < p.size; ++i) s += (p.data[i] - l.data[i]) * (p.data[i] - l.data[i]);
  y.data[0] = std::strcmp(red, "sum") == 0 ? s : s / p.size;
  return 0;
}
