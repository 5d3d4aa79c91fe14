// Tiling computations of the advanced APIs, shared by the host helpers (lib/adv_tiling.h)
// and by kernel-side tiling functions (SoftMaxFlashV2TilingFunc). One place decides how
// rows are split across the scratch space, so host and kernel agree.
#pragma once
#include <algorithm>
#include <cstdint>

#include "aoc/adv/tmp_size.h"
#include "kernel_tiling/kernel_tiling.h"

namespace aoc::adv {

// Row-wise softmax family on [m, k]; reduced outputs hold `outK` elements per row.
template <typename Tiling>
constexpr Tiling softmax_tiling(uint32_t m, uint32_t k, uint32_t outK, uint32_t workBytes, uint32_t f32Buffers) {
  Tiling t{};
  t.srcM = m;
  t.srcK = k;
  t.srcSize = m * k;
  t.outMaxM = m;
  t.outMaxK = outK;
  t.outMaxSize = m * outK;
  const uint64_t perRow = row_tmp_bytes(k, f32Buffers);
  const uint32_t rowsFit = perRow == 0 ? 0 : static_cast<uint32_t>(workBytes / perRow);
  t.splitM = std::max<uint32_t>(1, std::min(m, rowsFit));
  t.splitK = k;
  t.splitSize = t.splitM * k;
  t.reduceM = t.splitM;
  t.reduceK = kBlockBytes / sizeof(float);
  t.reduceSize = t.reduceM * t.reduceK;
  t.rangeM = m / t.splitM;
  t.tailM = m % t.splitM;
  t.tailSplitSize = t.tailM * k;
  t.tailReduceSize = t.tailM * t.reduceK;
  return t;
}

// Rows of a softmax-family call processed per pass, given the scratch actually available.
constexpr uint32_t rows_per_pass(uint32_t m, uint32_t k, uint32_t scratchBytes, uint32_t f32Buffers,
                                 uint32_t tilingSplitM) {
  const uint64_t perRow = row_tmp_bytes(k, f32Buffers);
  uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(m, scratchBytes / perRow));
  if (tilingSplitM != 0) rows = std::min(rows, tilingSplitM);
  return std::max<uint32_t>(rows, 1);
}

}  // namespace aoc::adv
