// Reference for top-k along the last axis: the k largest values of every row in descending
// order and their indices; equal values in ascending index order.
#include <algorithm>
#include <numeric>
#include <vector>

#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& values = call.output("values");
  AocGoldenTensor& indices = call.output("indices");
  const int64_t k = call.attr_int("k", 1);
  const int64_t cols = golden_api::Call::last_dim(x);
  const int64_t rows = golden_api::Call::rows(x);
  if (k < 1 || k > cols) return call.fail("k must be within 1 .. the last dimension");
  if (values.size != rows * k || indices.size != rows * k) return call.fail("outputs must be [..., k]");
  std::vector<int64_t> order(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = x.data + r * cols;
    std::iota(order.begin(), order.end(), int64_t{0});
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [in](int64_t a, int64_t b) {
      return in[a] > in[b] || (in[a] == in[b] && a < b);
    });
    for (int64_t j = 0; j < k; ++j) {
      values.data[r * k + j] = in[order[j]];
      indices.data[r * k + j] = static_cast<double>(order[j]);
    }
  }
  return 0;
}
