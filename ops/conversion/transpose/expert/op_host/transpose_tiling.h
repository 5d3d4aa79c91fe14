// Tiling data of TransposeCustom: the [R, C] matrices cut into square tiles of
// tileSize x tileSize, tiles split evenly across cores.
#ifndef TRANSPOSE_TILING_H
#define TRANSPOSE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TransposeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // R: second-to-last dimension of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // C: last dimension of x
  TILING_DATA_FIELD_DEF(uint32_t, tileSize);      // T: tile edge (a multiple of 16 elements)
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);      // ceil(R / T)
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);      // ceil(C / T)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one tile more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tailTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposeCustom, TransposeTilingData)
}  // namespace optiling
#endif  // TRANSPOSE_TILING_H
