// Tiling data of BroadcastAddCustom: rows of x split across cores, each row walked in
// column chunks that fit UB, and how many rows one UB tile holds.
#ifndef BROADCAST_ADD_TILING_H
#define BROADCAST_ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BroadcastAddTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // C: last dimension of x, length of bias
  TILING_DATA_FIELD_DEF(uint32_t, chunkCols);     // columns per chunk (all of C when it fits)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows of one chunk per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, regionPad);     // bytes completing each tile parity\'s 64 KB UB region (0: packed)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BroadcastAddCustom, BroadcastAddTilingData)
}  // namespace optiling
#endif  // BROADCAST_ADD_TILING_H
