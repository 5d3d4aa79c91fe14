// Tiling data of BroadcastMulCustom: rows (n, c) of x split across cores, each row walked
// in column chunks that fit UB, and how many rows one UB tile holds.
#ifndef BROADCAST_MUL_TILING_H
#define BROADCAST_MUL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BroadcastMulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C: second-to-last dimension of x, length of scale
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // L: last dimension of x
  TILING_DATA_FIELD_DEF(uint32_t, chunkCols);     // columns per chunk (all of L when it fits)
  TILING_DATA_FIELD_DEF(uint32_t, scalePerTile);  // 1: each tile loads its rows' scales (C > 8192)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows of one chunk per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BroadcastMulCustom, BroadcastMulTilingData)
}  // namespace optiling
#endif  // BROADCAST_MUL_TILING_H
