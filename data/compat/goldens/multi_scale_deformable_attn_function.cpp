// Multi-scale deformable attention (Deformable DETR), forward, in double precision.
//   value               [bs, num_keys, num_heads, embed]
//   value_spatial_shapes [num_levels, 2]  (H, W) of each level, int32
//   value_level_start_index [num_levels] first key of each level, int32
//   sampling_locations  [bs, num_queries, num_heads, num_levels, num_points, 2]  (x, y) in [0, 1]
//   attention_weights   [bs, num_queries, num_heads, num_levels, num_points]
//   output              [bs, num_queries, num_heads * embed]
// Each sample is read bilinearly at pixel (x * W - 0.5, y * H - 0.5) with zero padding outside
// the level's map, weighted by its attention weight, and summed over levels and points.
#include "aoc_golden.h"
#include <cmath>
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& v = call.input("value");
  const AocGoldenTensor& ss = call.input("value_spatial_shapes");
  const AocGoldenTensor& st = call.input("value_level_start_index");
  const AocGoldenTensor& loc = call.input("sampling_locations");
  const AocGoldenTensor& aw = call.input("attention_weights");
  AocGoldenTensor& out = call.output("output");
  if (v.rank != 4 || loc.rank != 6 || aw.rank != 5) return call.fail("expects value rank 4, locations rank 6, weights rank 5");
  const int64_t bs = v.dims[0], nk = v.dims[1], nh = v.dims[2], ed = v.dims[3];
  const int64_t nq = aw.dims[1], nl = aw.dims[3], np = aw.dims[4];
  if (ss.size < 2 * nl || st.size < nl) return call.fail("spatial shapes / start index shorter than the levels");
  if (out.size != bs * nq * nh * ed) return call.fail("output size mismatch");
  std::vector<real> acc(static_cast<size_t>(ed));
  for (int64_t b = 0; b < bs; ++b)
    for (int64_t q = 0; q < nq; ++q)
      for (int64_t h = 0; h < nh; ++h) {
        for (auto& a : acc) a = 0;
        for (int64_t l = 0; l < nl; ++l) {
          const int64_t H = static_cast<int64_t>(ss.data[2 * l]), W = static_cast<int64_t>(ss.data[2 * l + 1]);
          const int64_t start = static_cast<int64_t>(st.data[l]);
          for (int64_t p = 0; p < np; ++p) {
            const int64_t wi = (((b * nq + q) * nh + h) * nl + l) * np + p;
            const real x = static_cast<real>(loc.data[2 * wi]), y = static_cast<real>(loc.data[2 * wi + 1]);
            const real a = static_cast<real>(aw.data[wi]);
            const real him = y * static_cast<real>(H) - real(0.5), wim = x * static_cast<real>(W) - real(0.5);
            if (!(him > -1 && wim > -1 && him < static_cast<real>(H) && wim < static_cast<real>(W))) continue;
            const int64_t hl = static_cast<int64_t>(std::floor(him)), wl = static_cast<int64_t>(std::floor(wim));
            const real lh = him - static_cast<real>(hl), lw = wim - static_cast<real>(wl);
            const real hh = 1 - lh, hw = 1 - lw;
            const int64_t ys[2] = {hl, hl + 1}, xs[2] = {wl, wl + 1};
            const real wy[2] = {hh, lh}, wx[2] = {hw, lw};
            for (int i = 0; i < 2; ++i)
              for (int j = 0; j < 2; ++j) {
                if (ys[i] < 0 || ys[i] >= H || xs[j] < 0 || xs[j] >= W) continue;
                const int64_t key = start + ys[i] * W + xs[j];
                if (key < 0 || key >= nk) return call.fail("a sample reads past value's keys");
                const double* row = v.data + ((b * nk + key) * nh + h) * ed;
                const real w = a * wy[i] * wx[j];
                for (int64_t c = 0; c < ed; ++c) acc[static_cast<size_t>(c)] += w * static_cast<real>(row[c]);
              }
          }
        }
        double* o = out.data + ((b * nq + q) * nh + h) * ed;
        for (int64_t c = 0; c < ed; ++c) o[c] = static_cast<double>(acc[static_cast<size_t>(c)]);
      }
  return 0;
}
