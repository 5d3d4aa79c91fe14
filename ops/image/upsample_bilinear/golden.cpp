// Reference for bilinear upsampling of [N, C, H, W] (PyTorch 'bilinear'). The source
// coordinates, neighbour indices and weights follow the operator's float rule exactly
// (so both sides pick the same neighbours); the interpolation itself is in real.
#include <cmath>

#include "aoc_golden.h"

using golden_api::real;

namespace {
struct Taps {
  int64_t i0, i1;
  float lambda1;
};

Taps SourceTaps(int64_t dst, float ratio, bool alignCorners, int64_t inSize) {
  float src = static_cast<float>(dst) * ratio;
  if (!alignCorners) {
    src = (static_cast<float>(dst) + 0.5f) * ratio - 0.5f;
    src = src < 0.0f ? 0.0f : src;
  }
  const int64_t i0 = static_cast<int64_t>(std::floor(src));
  Taps taps;
  taps.lambda1 = src - static_cast<float>(i0);
  taps.i0 = i0 < inSize - 1 ? i0 : inSize - 1;
  taps.i1 = i0 + 1 < inSize - 1 ? i0 + 1 : inSize - 1;
  return taps;
}

float Ratio(int64_t in, int64_t out, double scale, bool alignCorners) {
  if (alignCorners) return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
  return static_cast<float>(1.0 / static_cast<float>(scale));
}
}  // namespace

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank != 4 || y.rank != 4) return call.fail("x and y must be [N, C, H, W]");
  const bool alignCorners = call.attr_bool("align_corners", false);
  const int64_t planes = x.dims[0] * x.dims[1];
  const int64_t inH = x.dims[2], inW = x.dims[3], outH = y.dims[2], outW = y.dims[3];
  const float ratioH = Ratio(inH, outH, call.attr_float("scale_h", 2.0), alignCorners);
  const float ratioW = Ratio(inW, outW, call.attr_float("scale_w", 2.0), alignCorners);
  for (int64_t p = 0; p < planes; ++p) {
    const double* in = x.data + p * inH * inW;
    for (int64_t oh = 0; oh < outH; ++oh) {
      const Taps h = SourceTaps(oh, ratioH, alignCorners, inH);
      const real h1 = h.lambda1, h0 = 1 - h1;
      for (int64_t ow = 0; ow < outW; ++ow) {
        const Taps w = SourceTaps(ow, ratioW, alignCorners, inW);
        const real w1 = w.lambda1, w0 = 1 - w1;
        const real top = w0 * static_cast<real>(in[h.i0 * inW + w.i0]) + w1 * static_cast<real>(in[h.i0 * inW + w.i1]);
        const real bottom = w0 * static_cast<real>(in[h.i1 * inW + w.i0]) + w1 * static_cast<real>(in[h.i1 * inW + w.i1]);
        y.data[(p * outH + oh) * outW + ow] = h0 * top + h1 * bottom;
      }
    }
  }
  return 0;
}
