// AdaptiveAvgPool3d (PyTorch adaptive_avg_pool3d semantics, channels-last layout of this operator):
// x [N, D, H, W, C] -> y [N, oD, oH, oW, C], (oD, oH, oW) = output_size. Output cell o along an
// axis of input length L and output length M averages input positions
// [floor(o * L / M), ceil((o + 1) * L / M)); the mean is over the product of the three windows.
#include <cstdint>
#include <vector>

#include "aoc_golden.h"

using golden_api::real;

namespace {
int64_t window_begin(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
int64_t window_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }
}  // namespace

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& y = call.output("y");
  if (x.rank != 5 || y.rank != 5) return call.fail("x and y must be 5-D [N, D, H, W, C]");
  const int64_t n = x.dims[0], id = x.dims[1], ih = x.dims[2], iw = x.dims[3], c = x.dims[4];
  const int64_t od = y.dims[1], oh = y.dims[2], ow = y.dims[3];
  if (y.dims[0] != n || y.dims[4] != c) return call.fail("y must keep N and C of x");
  std::vector<real> acc(static_cast<size_t>(c));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t a = 0; a < od; ++a)
      for (int64_t h = 0; h < oh; ++h)
        for (int64_t w = 0; w < ow; ++w) {
          const int64_t d0 = window_begin(a, id, od), d1 = window_end(a, id, od);
          const int64_t h0 = window_begin(h, ih, oh), h1 = window_end(h, ih, oh);
          const int64_t w0 = window_begin(w, iw, ow), w1 = window_end(w, iw, ow);
          for (auto& v : acc) v = 0;
          for (int64_t dd = d0; dd < d1; ++dd)
            for (int64_t hh = h0; hh < h1; ++hh)
              for (int64_t ww = w0; ww < w1; ++ww) {
                const double* src = x.data + (((b * id + dd) * ih + hh) * iw + ww) * c;
                for (int64_t k = 0; k < c; ++k) acc[k] += static_cast<real>(src[k]);
              }
          const real count = static_cast<real>((d1 - d0) * (h1 - h0) * (w1 - w0));
          double* dst = y.data + (((b * od + a) * oh + h) * ow + w) * c;
          for (int64_t k = 0; k < c; ++k) dst[k] = static_cast<double>(acc[k] / count);
        }
  return 0;
}
