// CrossEntropyLoss on input [N, C] with int64 class targets [N] and class weights [C]:
//   lse_n = log(sum_c exp(input[n, c])), log_prob[n, c] = input[n, c] - lse_n
//   nll_n = -weight[t_n] * log_prob[n, t_n], smooth_n = -sum_c weight[c] * log_prob[n, c]
//   (both 0 for rows whose target equals ignore_index)
//   loss_n = (1 - eps) * nll_n + eps / C * smooth_n          (eps = label_smoothing)
//   reduction "none": loss [N]; "sum": the sum over n; "mean": the sum divided by
//   sum_n weight[t_n] over the rows not ignored.
//   zloss_n = lse_square_scale_for_zloss * lse_n^2 (shaped like loss), lse_for_zloss_n = lse_n.
#include <cmath>
#include <cstring>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("input");
  const AocGoldenTensor& t = call.input("target");
  const AocGoldenTensor& w = call.input("weight");
  AocGoldenTensor& loss = call.output("loss");
  AocGoldenTensor& lp = call.output("log_prob");
  AocGoldenTensor& zl = call.output("zloss");
  AocGoldenTensor& lse_out = call.output("lse_for_zloss");
  if (x.rank != 2) return call.fail("input must be [N, C]");
  const int64_t n = x.dims[0], c = x.dims[1];
  if (t.size != n || w.size != c || lp.size != x.size) return call.fail("target must be [N], weight [C], log_prob [N, C]");
  const char* red = call.attr_str("reduction", "mean");
  const int64_t ignore = call.attr_int("ignore_index", -100);
  const real eps = call.attr_float("label_smoothing", 0.0);
  const real zscale = call.attr_float("lse_square_scale_for_zloss", 0.0);
  std::vector<real> per(n, 0), lse(n, 0);
  real wsum = 0;
  for (int64_t r = 0; r < n; ++r) {
    const double* row = x.data + r * c;
    real m = row[0];
    for (int64_t k = 1; k < c; ++k) m = row[k] > m ? static_cast<real>(row[k]) : m;
    real s = 0;
    for (int64_t k = 0; k < c; ++k) s += std::exp(static_cast<real>(row[k]) - m);
    lse[r] = m + std::log(s);
    for (int64_t k = 0; k < c; ++k) lp.data[r * c + k] = static_cast<real>(row[k]) - lse[r];
    const int64_t tg = static_cast<int64_t>(t.data[r]);
    if (tg == ignore) continue;
    if (tg < 0 || tg >= c) return call.fail("target out of [0, C)");
    real smooth = 0;
    for (int64_t k = 0; k < c; ++k) smooth -= static_cast<real>(w.data[k]) * (static_cast<real>(row[k]) - lse[r]);
    const real nll = -static_cast<real>(w.data[tg]) * (static_cast<real>(row[tg]) - lse[r]);
    per[r] = (real(1) - eps) * nll + eps / static_cast<real>(c) * smooth;
    wsum += static_cast<real>(w.data[tg]);
  }
  if (std::strcmp(red, "none") == 0) {
    if (loss.size != n) return call.fail("reduction none: loss must be [N]");
    for (int64_t r = 0; r < n; ++r) loss.data[r] = per[r];
  } else {
    real s = 0;
    for (int64_t r = 0; r < n; ++r) s += per[r];
    loss.data[0] = std::strcmp(red, "mean") == 0 ? s / wsum : s;
  }
  for (int64_t i = 0; i < zl.size; ++i) zl.data[i] = zl.size == n ? zscale * lse[i] * lse[i] : zscale * lse[0] * lse[0];
  for (int64_t i = 0; i < lse_out.size; ++i) lse_out.data[i] = i < n ? lse[i] : 0;
  return 0;
}
