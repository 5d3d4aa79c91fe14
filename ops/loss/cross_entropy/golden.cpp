// Reference for cross_entropy: loss[n] = ln(sum_c exp(x[n,c] - m)) + m - x[n, target[n]] with
// m the row maximum (in golden_api::real); rows whose target is ignore_index or outside
// [0, C) give 0 and are not counted in the mean.
#include <cmath>
#include <string>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("logits");
  const AocGoldenTensor& target = call.input("target");
  AocGoldenTensor& loss = call.output("loss");
  const AocGoldenAttr* attr = call.attr("reduction");
  const std::string reduction = attr != nullptr && attr->s != nullptr ? attr->s : "mean";
  const int64_t ignoreIndex = call.attr_int("ignore_index", -100);
  if (x.rank != 2) return call.fail("logits must be [N, C]");
  const int64_t rows = x.dims[0];
  const int64_t classes = x.dims[1];
  if (target.size != rows) return call.fail("target must hold one class id per row of logits");
  if (reduction != "none" && reduction != "mean" && reduction != "sum")
    return call.fail("reduction must be none, mean or sum");
  if (reduction == "none" ? loss.size != rows : loss.size != 1) return call.fail("loss has the wrong size");
  real sum = 0;
  int64_t counted = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = x.data + r * classes;
    const auto t = static_cast<int64_t>(target.data[r]);
    real value = 0;
    if (t != ignoreIndex && t >= 0 && t < classes) {
      real m = static_cast<real>(row[0]);
      for (int64_t c = 1; c < classes; ++c) m = std::fmax(m, static_cast<real>(row[c]));
      real s = 0;
      for (int64_t c = 0; c < classes; ++c) s += std::exp(static_cast<real>(row[c]) - m);
      value = std::log(s) + (m - static_cast<real>(row[t]));
      ++counted;
    }
    if (reduction == "none") loss.data[r] = value;
    sum += value;
  }
  if (reduction == "sum") loss.data[0] = sum;
  if (reduction == "mean") loss.data[0] = sum / static_cast<real>(counted);
  return 0;
}
