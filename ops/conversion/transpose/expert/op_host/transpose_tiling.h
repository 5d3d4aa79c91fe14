// Tiling data of TransposeCustom (expert): the [R, C] matrices cut into tiles of
// tileRows x tileCols fitted to the matrix shape, tiles split evenly across cores.
#ifndef TRANSPOSE_TILING_H
#define TRANSPOSE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TransposeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // R: second-to-last dimension of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // C: last dimension of x
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);      // rows of x in one tile
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);      // columns of x in one tile
  TILING_DATA_FIELD_DEF(uint32_t, inPitch);       // UB elements between tile rows of x (C when one tile spans C)
  TILING_DATA_FIELD_DEF(uint32_t, outPitch);      // UB elements between tile rows of y (R when one tile spans R)
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);      // ceil(R / tileRows)
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);      // ceil(C / tileCols)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one tile more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tailTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposeCustom, TransposeTilingData)
}  // namespace optiling
#endif  // TRANSPOSE_TILING_H
