// Reference for ascend_quant_v2: quantization to int8 with a scale and an offset per channel of
// dimension `axis` (or one value for the whole tensor when scale has one element):
//   v = x * scale [* scale again when sqrt_mode] + offset
//   y = saturate_int8(R(v)), R by round_mode: "round" rounds half to even, "floor", "ceil", "trunc".
// scale and offset hold either one element or the length of x's dimension `axis`.
#include <cmath>
#include <cstring>

#include "aoc_golden.h"

using golden_api::real;

static real round_by(real v, const char* mode) {
  if (std::strcmp(mode, "floor") == 0) return std::floor(v);
  if (std::strcmp(mode, "ceil") == 0) return std::ceil(v);
  if (std::strcmp(mode, "trunc") == 0) return std::trunc(v);
  return std::nearbyint(v);  // "round": to nearest, ties to even (the default FE_TONEAREST mode)
}

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& scale = call.input("scale");
  const AocGoldenTensor& offset = call.input("offset");
  AocGoldenTensor& y = call.output("y");
  const bool sqrt_mode = call.attr_bool("sqrt_mode", false);
  const char* mode = call.attr_str("round_mode", "round");
  int64_t axis = call.attr_int("axis", -1);
  if (x.rank < 1) return call.fail("x needs a dimension");
  if (axis < 0) axis += x.rank;
  if (axis < 0 || axis >= x.rank) return call.fail("axis is outside x's rank");
  const int64_t n = x.dims[axis];
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < x.rank; ++d) inner *= x.dims[d];
  if ((scale.size != 1 && scale.size != n) || (offset.size != 1 && offset.size != n))
    return call.fail("scale and offset must hold 1 element or x.dims[axis] elements");
  if (y.size != x.size) return call.fail("y must have x's shape");
  for (int64_t i = 0; i < x.size; ++i) {
    const int64_t c = (i / inner) % n;
    const real sc = static_cast<real>(scale.data[scale.size == 1 ? 0 : c]);
    const real of = static_cast<real>(offset.data[offset.size == 1 ? 0 : c]);
    real v = static_cast<real>(x.data[i]) * sc;
    if (sqrt_mode) v *= sc;
    v += of;
    real r = round_by(v, mode);
    if (std::isnan(r)) r = 0;
    if (r > 127) r = 127;
    if (r < -128) r = -128;
    y.data[i] = r;
  }
  return 0;
}
