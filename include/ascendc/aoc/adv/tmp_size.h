// Scratch-space requirements of the advanced APIs, shared by the kernel side (which
// rejects a too-small sharedTmpBuffer) and the host helpers (GetXxxMaxMinTmpSize), so
// both always agree.
//
// Model: the device implementation stages data through float work buffers in UB. The
// minimum lets it process one 256 B vector repeat per buffer at a time; the maximum
// processes the whole input in one pass. 16-bit inputs need one extra float staging
// buffer for the up-cast.
#pragma once
#include <algorithm>
#include <cstdint>

namespace aoc::adv {

constexpr uint32_t kRepeatBytes = 256;
constexpr uint32_t kBlockBytes = 32;

constexpr uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

struct TmpRange {
  uint32_t min = 0;
  uint32_t max = 0;
};

// Float work buffers an element-wise API keeps alive at once.
constexpr uint32_t work_buffers(uint32_t f32Buffers, uint32_t typeSize) {
  return f32Buffers + (typeSize == 2 && f32Buffers > 0 ? 1u : 0u);
}

constexpr TmpRange elementwise_tmp(uint64_t count, uint32_t typeSize, uint32_t f32Buffers) {
  const uint32_t n = work_buffers(f32Buffers, typeSize);
  if (n == 0 || count == 0) return {};
  const uint64_t whole = align_up(count * sizeof(float), kBlockBytes) * n;
  const uint64_t one = uint64_t(kRepeatBytes) * n;
  return TmpRange{static_cast<uint32_t>(std::min(one, whole)), static_cast<uint32_t>(whole)};
}

// Row-wise reductions (SoftMax family, LayerNorm, RmsNorm) work on whole rows: one float
// copy per buffer of a row plus one 32 B block per row for the reduced value.
constexpr uint64_t row_tmp_bytes(uint32_t rowLen, uint32_t f32Buffers) {
  return align_up(uint64_t(rowLen) * sizeof(float), kBlockBytes) * f32Buffers + kBlockBytes;
}

constexpr TmpRange rowwise_tmp(uint32_t rows, uint32_t rowLen, uint32_t f32Buffers) {
  if (rows == 0 || rowLen == 0) return {};
  const uint64_t per = row_tmp_bytes(rowLen, f32Buffers);
  return TmpRange{static_cast<uint32_t>(per), static_cast<uint32_t>(per * rows)};
}

// Float work buffers per API (see the instruction sequences in activation.h / math.h).
namespace bufs {
constexpr uint32_t Sigmoid = 1, Tanh = 2, Gelu = 2, FasterGelu = 1, FasterGeluV2 = 2, Silu = 0, Swish = 0,
                   SwiGLU = 2, Erf = 3, Erfc = 3, Exp = 2, Log = 0, Log2 = 1, Log10 = 0, Power = 3, Sin = 3,
                   Cos = 3, Sinh = 2, Cosh = 2, Floor = 1, Ceil = 1, Round = 1, Trunc = 1, Sign = 2, Clamp = 1;
constexpr uint32_t SoftMax = 2, SoftmaxFlash = 3, LogSoftMax = 2, LayerNorm = 2, RmsNorm = 2;
}  // namespace bufs

}  // namespace aoc::adv
