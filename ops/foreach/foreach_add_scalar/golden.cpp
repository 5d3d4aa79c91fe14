// Reference for foreach_add_scalar: y_i = x_i + alpha for each tensor of the list (in golden_api::real).
#include <string>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const real alpha = call.attr_float("alpha", 1.0);
  for (int i = 0; i < 4; ++i) {
    const AocGoldenTensor& x = call.input(("x" + std::to_string(i)).c_str());
    AocGoldenTensor& y = call.output(("y" + std::to_string(i)).c_str());
    for (int64_t k = 0; k < y.size; ++k) y.data[k] = static_cast<real>(x.data[k]) + alpha;
  }
  return 0;
}
