// Instruction trace of the row-normalisation APIs (LayerNorm, RmsNorm): per pass over a
// group of rows, the basic vector instructions the device issues, with the ranges they
// read and write (tile work buffers in scratch, one reduced block per row, gamma/beta,
// and the mean/variance outputs).
#pragma once
#include <string_view>
#include <vector>

#include "aoc/adv/common.h"

namespace aoc::adv {

struct NormStep {
  const char* op;
  bool perElem;   // over the whole [rows, R] tile, else one block per row
  char operand;   // 'g' reads gamma, 'b' reads beta, 'm' writes mean out, 'v' writes var/rstd out, 0 none
};

struct NormRanges {
  Range gamma, beta;
  Range meanOut, varOut;  // for the rows of this pass; empty when the API has none
  bool hasMean = false, hasVar = false;
};

// Emits one pass. `in`/`out` are the pass's input and output tile ranges; `up` adds the
// Cast to float at the start and back to the narrow type at the end.
inline void trace_norm_pass(VecTrace& tr, const std::vector<NormStep>& steps, DType io, bool up, uint64_t n,
                            uint32_t rows, const Range& in, const Range& out, const Scratch& s,
                            const NormRanges& nr) {
  const uint64_t tileBytes = n * sizeof(float);
  const Range work[2] = {sub_range(s.range, 0, tileBytes), sub_range(s.range, tileBytes, tileBytes)};
  const Range red = sub_range(s.range, 2 * tileBytes, uint64_t(rows) * kBlockBytes);
  const uint64_t redElems = uint64_t(rows) * (kBlockBytes / sizeof(float));
  size_t lastElem = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].perElem) lastElem = i;
  }
  Range cur = in;
  int w = 0;
  if (up) {
    tr.op("Cast", io, n, {in}, work[0], DType::F32);
    cur = work[0];
    w = 1;
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    const NormStep& st = steps[i];
    if (!st.perElem) {
      Range target = red;
      if (st.operand == 'm' && nr.hasMean) target = nr.meanOut;
      if (st.operand == 'v' && nr.hasVar) target = nr.varOut;
      tr.op(st.op, DType::F32, redElems, {red}, target);
      continue;
    }
    if (std::string_view(st.op).starts_with("Reduce")) {
      tr.op(st.op, DType::F32, n, {cur}, red);
      continue;
    }
    const Range dstR = (i == lastElem && !up) ? out : work[w];
    const Range side = st.operand == 'g' ? nr.gamma : (st.operand == 'b' ? nr.beta : red);
    tr.op(st.op, DType::F32, n, {cur, side}, dstR);
    cur = dstR;
    w ^= 1;
  }
  if (up) tr.op("Cast", DType::F32, n, {cur}, out, io);
}

}  // namespace aoc::adv
