// Reference for fake_quant_affine_cachemask (PyTorch fake_quantize_per_channel_affine_cachemask,
// and the per-tensor form with one scale): with q = round_half_even(x / scale) + zero_point,
//   y    = (clamp(q, quant_min, quant_max) - zero_point) * scale
//   mask = quant_min <= q <= quant_max
// scale and zero_point hold one value per index of dimension `axis` of x (or one value).
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& scale = call.input("scale");
  const AocGoldenTensor& zp = call.input("zero_point");
  AocGoldenTensor& y = call.output("y");
  AocGoldenTensor& mask = call.output("mask");
  int64_t axis = call.attr_int("axis", 0);
  const real qmin = static_cast<real>(call.attr_int("quant_min", 0));
  const real qmax = static_cast<real>(call.attr_int("quant_max", 255));
  if (x.rank < 1) return call.fail("x needs a dimension");
  if (axis < 0) axis += x.rank;
  if (axis < 0 || axis >= x.rank) return call.fail("axis is outside x's rank");
  const int64_t n = x.dims[axis];
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < x.rank; ++d) inner *= x.dims[d];
  if ((scale.size != 1 && scale.size != n) || (zp.size != 1 && zp.size != n))
    return call.fail("scale and zero_point must hold 1 element or x.dims[axis] elements");
  if (y.size != x.size || mask.size != x.size) return call.fail("y and mask must have x's shape");
  for (int64_t i = 0; i < x.size; ++i) {
    const int64_t c = (i / inner) % n;
    const real sc = static_cast<real>(scale.data[scale.size == 1 ? 0 : c]);
    const real z = static_cast<real>(zp.data[zp.size == 1 ? 0 : c]);
    const real q = std::nearbyint(static_cast<real>(x.data[i]) / sc) + z;
    const bool in = q >= qmin && q <= qmax;
    const real qc = q < qmin ? qmin : (q > qmax ? qmax : q);
    y.data[i] = (qc - z) * sc;
    mask.data[i] = in ? 1.0 : 0.0;
  }
  return 0;
}
