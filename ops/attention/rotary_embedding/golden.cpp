// Reference for the half-rotation rotary embedding (in golden_api::real).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& cs = call.input("cos");
  const AocGoldenTensor& sn = call.input("sin");
  AocGoldenTensor& y = call.output("y");
  if (x.rank != 3) return call.fail("x must be [tokens, heads, head_dim]");
  const int64_t tokens = x.dims[0], heads = x.dims[1], dim = x.dims[2];
  if (dim % 2 != 0) return call.fail("head_dim must be even");
  if (cs.size != tokens * dim || sn.size != tokens * dim) return call.fail("cos and sin must be [tokens, head_dim]");
  const int64_t half = dim / 2;
  for (int64_t t = 0; t < tokens; ++t) {
    const double* c = cs.data + t * dim;
    const double* s = sn.data + t * dim;
    for (int64_t h = 0; h < heads; ++h) {
      const double* in = x.data + (t * heads + h) * dim;
      double* out = y.data + (t * heads + h) * dim;
      for (int64_t i = 0; i < half; ++i) {
        const real x1 = static_cast<real>(in[i]), x2 = static_cast<real>(in[i + half]);
        out[i] = x1 * static_cast<real>(c[i]) - x2 * static_cast<real>(s[i]);
        out[i + half] = x2 * static_cast<real>(c[i + half]) + x1 * static_cast<real>(s[i + half]);
      }
    }
  }
  return 0;
}
