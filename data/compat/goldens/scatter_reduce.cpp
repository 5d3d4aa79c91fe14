// Golden for scatter_reduce (torch.Tensor.scatter_reduce): y starts as x; every element of src is
// reduced into y at the position of its own coordinates with coordinate `dim` replaced by the
// matching element of index. reduce: "sum", "prod", "mean", "amax", "amin". With
// include_self = false the original x value of a position that receives something does not take
// part; a position that receives nothing keeps x. "mean" divides by the number of values reduced
// (including x when include_self).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& index = call.input("index");
  const AocGoldenTensor& src = call.input("src");
  AocGoldenTensor& y = call.output("y");
  int64_t dim = call.attr_int("dim", 0);
  if (dim < 0) dim += x.rank;
  if (dim < 0 || dim >= x.rank) return call.fail("dim out of range");
  if (index.rank != x.rank || src.size != index.size) return call.fail("index and src must match, with x's rank");
  const std::string red = call.attr_str("reduce", "sum");
  const bool self = call.attr_bool("include_self", true);
  int op;
  if (red == "sum" || red.empty()) op = 0;
  else if (red == "prod") op = 1;
  else if (red == "mean") op = 2;
  else if (red == "amax") op = 3;
  else if (red == "amin") op = 4;
  else return call.fail("unknown reduce " + red);

  std::vector<real> acc(x.size);
  std::vector<int64_t> cnt(x.size, 0);
  for (int64_t i = 0; i < x.size; ++i) acc[i] = static_cast<real>(x.data[i]);
  if (self) std::fill(cnt.begin(), cnt.end(), 1);

  std::vector<int64_t> xstride(x.rank);
  int64_t s = 1;
  for (int32_t d = x.rank - 1; d >= 0; --d) { xstride[d] = s; s *= x.dims[d]; }
  std::vector<int64_t> idx(index.rank, 0);
  for (int64_t n = 0; n < index.size; ++n) {
    const int64_t k = static_cast<int64_t>(index.data[n]);
    if (k < 0 || k >= x.dims[dim]) return call.fail("index " + std::to_string(k) + " outside x's dim");
    int64_t off = 0;
    for (int32_t d = 0; d < index.rank; ++d) off += (d == dim ? k : idx[d]) * xstride[d];
    const real v = static_cast<real>(src.data[n]);
    if (cnt[off] == 0) {
      acc[off] = v;
    } else {
      switch (op) {
        case 0: case 2: acc[off] += v; break;
        case 1: acc[off] *= v; break;
        case 3: acc[off] = v > acc[off] ? v : acc[off]; break;
        default: acc[off] = v < acc[off] ? v : acc[off]; break;
      }
    }
    ++cnt[off];
    for (int32_t d = index.rank - 1; d >= 0; --d) {
      if (++idx[d] < index.dims[d]) break;
      idx[d] = 0;
    }
  }
  for (int64_t i = 0; i < x.size; ++i) {
    if (cnt[i] == 0) { y.data[i] = x.data[i]; continue; }
    y.data[i] = op == 2 ? acc[i] / static_cast<real>(cnt[i]) : acc[i];
  }
  return 0;
}
