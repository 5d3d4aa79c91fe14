// Transpose(dst, src): one 16 x 16 matrix of 2-byte elements, dst[j][i] = src[i][j].
#pragma once
#include <array>
#include <cstdint>

#include "aoc/vec/forms.h"

namespace AscendC {

template <typename T> inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, AOC_VEC_LOC) {
  static_assert(sizeof(T) == 2, "Transpose: element type must be 2 bytes (16 x 16 block)");
  aoc::vec::Span s;
  s.add_range(0, 256);
  const aoc::Range rs = aoc::vec::check_operand(src, s, "Transpose", loc, "src");
  const aoc::Range rd = aoc::vec::check_operand(dst, s, "Transpose", loc, "dst");
  aoc::vec::Record("Transpose", loc, aoc::dtype_of<T>(), aoc::dtype_of<T>(), 256, 2).read(rs).write(rd);
  std::array<T, 256> tmp;  // dst may be src
  for (uint32_t i = 0; i < 256; ++i) tmp[i] = src.aoc_ptr()[i];
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 16; ++j) dst.aoc_ptr()[j * 16 + i] = tmp[i * 16 + j];
}

}  // namespace AscendC
