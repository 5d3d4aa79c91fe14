// StridedSliceAssignV2 (TF strided_slice_assign / var[begin:end:strides] = input_value along the
// listed axes): the output is var with the strided slice replaced by input_value. begin, end and
// strides hold one entry per listed axis (axes); axes not listed keep their whole range with
// stride 1. Negative begin/end count from the end of the axis; both are clamped to [0, dim]
// (positive strides, as the operator requires).
#include <cstdint>
#include <vector>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& var = call.input("var");
  const AocGoldenTensor& value = call.input("input_value");
  const AocGoldenTensor& begin_t = call.input("begin");
  const AocGoldenTensor& end_t = call.input("end");
  const AocGoldenTensor& strides_t = call.input("strides");
  const AocGoldenTensor& axes_t = call.input("axes");
  AocGoldenTensor& out = call.output("var");
  const int rank = var.rank;
  if (value.rank != rank) return call.fail("input_value must have the rank of var");
  if (out.size != var.size) return call.fail("the output must have the shape of var");
  std::vector<int64_t> b(rank, 0), e(rank), s(rank, 1);
  for (int d = 0; d < rank; ++d) e[d] = var.dims[d];
  const int64_t k = axes_t.size;
  if (begin_t.size < k || end_t.size < k || strides_t.size < k)
    return call.fail("begin, end and strides need one entry per axis");
  for (int64_t i = 0; i < k; ++i) {
    int64_t ax = static_cast<int64_t>(axes_t.data[i]);
    if (ax < 0) ax += rank;
    if (ax < 0 || ax >= rank) return call.fail("axis out of range");
    b[ax] = static_cast<int64_t>(begin_t.data[i]);
    e[ax] = static_cast<int64_t>(end_t.data[i]);
    s[ax] = static_cast<int64_t>(strides_t.data[i]);
  }
  for (int d = 0; d < rank; ++d) {
    const int64_t n = var.dims[d];
    if (s[d] <= 0) return call.fail("only positive strides are supported");
    if (b[d] < 0) b[d] += n;
    if (e[d] < 0) e[d] += n;
    b[d] = b[d] < 0 ? 0 : (b[d] > n ? n : b[d]);
    e[d] = e[d] < 0 ? 0 : (e[d] > n ? n : e[d]);
    const int64_t len = e[d] > b[d] ? (e[d] - b[d] + s[d] - 1) / s[d] : 0;
    if (len != value.dims[d]) return call.fail("input_value's shape does not match the slice");
  }
  for (int64_t i = 0; i < var.size; ++i) out.data[i] = var.data[i];
  std::vector<int64_t> idx(rank, 0);
  for (int64_t i = 0; i < value.size; ++i) {
    int64_t off = 0;
    for (int d = 0; d < rank; ++d) off = off * var.dims[d] + b[d] + idx[d] * s[d];
    out.data[off] = value.data[i];
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < value.dims[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}
