// Reference for one SGD-with-momentum step (in golden_api::real: double for the reference).
#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& param = call.input("param");
  const AocGoldenTensor& grad = call.input("grad");
  const AocGoldenTensor& buf = call.input("buf");
  AocGoldenTensor& paramOut = call.output("param_out");
  AocGoldenTensor& bufOut = call.output("buf_out");
  const real lr = call.attr_float("lr", 0.01);
  const real momentum = call.attr_float("momentum", 0.9);
  const real dampening = call.attr_float("dampening", 0.0);
  const real weightDecay = call.attr_float("weight_decay", 0.0);
  const bool nesterov = call.attr_bool("nesterov", false);
  for (int64_t i = 0; i < param.size; ++i) {
    const real p = static_cast<real>(param.data[i]);
    const real g = static_cast<real>(grad.data[i]) + weightDecay * p;
    const real b = momentum * static_cast<real>(buf.data[i]) + (1 - dampening) * g;
    bufOut.data[i] = b;
    paramOut.data[i] = p - lr * (nesterov ? g + momentum * b : b);
  }
  return 0;
}
