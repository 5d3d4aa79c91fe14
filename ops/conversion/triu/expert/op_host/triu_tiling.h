// Tiling data of TriuCustom: rows of the last axis split across cores, and how many
// whole rows one UB tile holds.
#ifndef TRIU_TILING_H
#define TRIU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TriuTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, matRows);       // second-to-last dimension (1 for rank 1)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, chunkCols);     // columns per chunk (cols when a whole row fits in UB)
  TILING_DATA_FIELD_DEF(uint32_t, colsPadded);    // row pitch in UB: chunkCols rounded up to a 256 B float repeat
  TILING_DATA_FIELD_DEF(int32_t, diagonal);       // keep x[i][j] where j - i >= diagonal
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TriuCustom, TriuTilingData)
}  // namespace optiling
#endif  // TRIU_TILING_H
