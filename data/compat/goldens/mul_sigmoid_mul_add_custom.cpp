// MulSigmoidMulAddCustom: outputs = sigmoid(input * mulscalar1) * mulscalar2 + addscalar3,
// elementwise; the three scalars are one-element tensors (element 0 is used).
// The output is expected to hold as many elements as input (the operator's InferShape gives it
// input's shape with dimension 0 replaced by dimension 1, so this holds for square leading dims).
#include <cmath>
#include "aoc_golden.h"
using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("input");
  const AocGoldenTensor& a = call.input("mulscalar1");
  const AocGoldenTensor& b = call.input("mulscalar2");
  const AocGoldenTensor& c = call.input("addscalar3");
  AocGoldenTensor& y = call.output("outputs");
  if (a.size < 1 || b.size < 1 || c.size < 1) return call.fail("the scalar inputs need one element");
  if (y.size != x.size) return call.fail("outputs does not have input's element count (InferShape sets dim 0 to dim 1)");
  const real s1 = static_cast<real>(a.data[0]);
  const real s2 = static_cast<real>(b.data[0]);
  const real s3 = static_cast<real>(c.data[0]);
  for (int64_t i = 0; i < y.size; ++i) {
    const real t = static_cast<real>(x.data[i]) * s1;
    const real sig = real(1) / (real(1) + std::exp(-t));
    y.data[i] = sig * s2 + s3;
  }
  return 0;
}
