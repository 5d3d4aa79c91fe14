// Reference for nearest upsampling of [N, C, H, W] by scale_h, scale_w (PyTorch
// 'nearest'): source index = min(floor(dst * float(1 / scale)), size - 1). The index
// rule is computed in float, as the operator defines it, so both sides pick the same pixel.
#include <cmath>

#include "aoc_golden.h"

static int64_t SourceIndex(int64_t dst, float invScale, int64_t inSize) {
  const int64_t src = static_cast<int64_t>(std::floor(static_cast<float>(dst) * invScale));
  return src < inSize - 1 ? src : inSize - 1;
}

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank != 4 || y.rank != 4) return call.fail("x and y must be [N, C, H, W]");
  const double scaleH = call.attr_float("scale_h", 2.0);
  const double scaleW = call.attr_float("scale_w", 2.0);
  const float invH = static_cast<float>(1.0 / static_cast<float>(scaleH));
  const float invW = static_cast<float>(1.0 / static_cast<float>(scaleW));
  const int64_t planes = x.dims[0] * x.dims[1];
  const int64_t inH = x.dims[2], inW = x.dims[3], outH = y.dims[2], outW = y.dims[3];
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oh = 0; oh < outH; ++oh) {
      const int64_t ih = SourceIndex(oh, invH, inH);
      for (int64_t ow = 0; ow < outW; ++ow)
        y.data[(p * outH + oh) * outW + ow] = x.data[(p * inH + ih) * inW + SourceIndex(ow, invW, inW)];
    }
  return 0;
}
