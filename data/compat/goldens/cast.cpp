// Cast: y = x converted to the dtype named by the REQUIRED attribute dst_type (ge::DataType
// numbering: 0 float32, 1 float16, 2 int8, 3 int32, 4 uint8, 6 int16, 9 int64, 12 bool, 27 bfloat16),
// with the semantics of torch's Tensor.type(dtype), which the operator's tests compare against:
//   * to a floating type: the value itself (the runner rounds it to nearest-even in the output dtype);
//   * to an integer type: truncation toward zero, then two's-complement wrap-around to the type's
//     width (docs/Cast.md: float16 -> int8 goes through int16, modulo 256);
//   * to bool: x != 0 (NaN is true).
// Integer outputs of non-finite inputs are undefined and not drawn by the cases.
#include <cmath>
#include <cstdint>
#include "aoc_golden.h"
using golden_api::real;

namespace {

double wrap(double t, int bits, bool is_signed) {
  const double m = std::ldexp(1.0, bits);
  double r = std::fmod(t, m);
  if (r < 0) r += m;                                   // [0, 2^bits)
  if (is_signed && r >= m / 2) r -= m;                 // [-2^(bits-1), 2^(bits-1))
  return r;
}

}  // namespace

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  const int64_t dst = call.attr_int("dst_type", -1);
  for (int64_t i = 0; i < y.size; ++i) {
    const double v = x.data[i];
    double r;
    switch (dst) {
      case 0: case 1: case 27: r = v; break;                       // float32, float16, bfloat16
      case 12: r = (v != 0.0 || std::isnan(v)) ? 1.0 : 0.0; break;  // bool
      case 2: r = wrap(std::trunc(v), 8, true); break;              // int8
      case 4: r = wrap(std::trunc(v), 8, false); break;             // uint8
      case 6: r = wrap(std::trunc(v), 16, true); break;             // int16
      case 3: r = wrap(std::trunc(v), 32, true); break;             // int32
      case 9: r = std::trunc(v); break;                             // int64 (inputs are narrower)
      default: return call.fail("dst_type " + std::to_string(dst) + " is not a dtype the operator supports");
    }
    y.data[i] = static_cast<real>(r);
  }
  return 0;
}
