// Golden for moe_soft_max_topk: the router of a mixture of experts. Each row of x (one token's
// expert logits) goes through a softmax over the last axis; y holds the k largest probabilities in
// descending order and indices their expert numbers (ties: the lower expert first).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  AocGoldenTensor& ind = call.output("indices");
  const int64_t k = call.attr_int("k", 4);
  const int64_t e = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (k < 1 || k > e) return call.fail("k must be in [1, experts]");
  if (y.size != rows * k || ind.size != rows * k) return call.fail("outputs must be [rows, k]");
  std::vector<real> p(e);
  std::vector<int64_t> order(e);
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = x.data + r * e;
    real mx = row[0];
    for (int64_t j = 1; j < e; ++j) mx = std::max<real>(mx, row[j]);
    real sum = 0;
    for (int64_t j = 0; j < e; ++j) { p[j] = std::exp(static_cast<real>(row[j]) - mx); sum += p[j]; }
    for (int64_t j = 0; j < e; ++j) p[j] /= sum;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return p[a] > p[b]; });
    for (int64_t j = 0; j < k; ++j) {
      y.data[r * k + j] = p[order[j]];
      ind.data[r * k + j] = static_cast<double>(order[j]);
    }
  }
  return 0;
}
