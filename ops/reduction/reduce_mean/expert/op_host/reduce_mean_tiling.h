// Tiling data of ReduceMeanCustom (expert; sum over the last axis): rows split across cores;
// short rows travel whole, several per UB tile, long rows in column chunks.
#ifndef REDUCE_MEAN_TILING_H
#define REDUCE_MEAN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension (reduced)
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // row pitch in UB when rows travel whole
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows (and results) per tile
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // elements per column chunk; == cols when rows travel whole
  TILING_DATA_FIELD_DEF(uint32_t, vecRows);       // 1: whole tiles of rows are summed by strided vector ops
  TILING_DATA_FIELD_DEF(uint32_t, splits);        // > 1: each row is summed by this many cores, a segment each
  TILING_DATA_FIELD_DEF(uint32_t, segLen);        // elements per segment (split rows)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceMeanCustom, ReduceMeanTilingData)
}  // namespace optiling
#endif  // REDUCE_MEAN_TILING_H
