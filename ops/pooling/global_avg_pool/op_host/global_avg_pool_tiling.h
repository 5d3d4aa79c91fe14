// Tiling data of GlobalAvgPoolCustom: one row of H*W values per (n, c), rows split across
// cores; short rows travel whole, several per UB tile, long rows in column chunks.
#ifndef GLOBAL_AVG_POOL_TILING_H
#define GLOBAL_AVG_POOL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GlobalAvgPoolTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // H * W (averaged)
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // row pitch in UB when rows travel whole
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows (and results) per tile
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // elements per column chunk; == cols when rows travel whole
  TILING_DATA_FIELD_DEF(float, scale);            // 1 / (H * W)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GlobalAvgPoolCustom, GlobalAvgPoolTilingData)
}  // namespace optiling
#endif  // GLOBAL_AVG_POOL_TILING_H
