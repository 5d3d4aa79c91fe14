// Reference for foreach_mul_list: z_i = x_i * y_i for each pair of the lists (in golden_api::real).
#include <string>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  for (int i = 0; i < 4; ++i) {
    const std::string index = std::to_string(i);
    const AocGoldenTensor& x = call.input(("x" + index).c_str());
    const AocGoldenTensor& y = call.input(("y" + index).c_str());
    AocGoldenTensor& z = call.output(("z" + index).c_str());
    if (x.size != y.size) return call.fail("x_i and y_i must have the same number of elements");
    for (int64_t k = 0; k < z.size; ++k) z.data[k] = static_cast<real>(x.data[k]) * static_cast<real>(y.data[k]);
  }
  return 0;
}
