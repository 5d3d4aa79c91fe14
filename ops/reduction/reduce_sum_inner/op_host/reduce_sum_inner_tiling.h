// Tiling data of ReduceSumInnerCustom: x viewed as [A, R, B] (R the reduced axis); the
// work items are (a, chunk of B) pairs, split across cores; rows of R stream per tile.
#ifndef REDUCE_SUM_INNER_TILING_H
#define REDUCE_SUM_INNER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceSumInnerTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);     // R
  TILING_DATA_FIELD_DEF(uint32_t, innerLen);      // B, elements after the reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // elements of B per work item
  TILING_DATA_FIELD_DEF(uint32_t, chunkPitch);    // chunkLen rounded up to 32 B: row pitch in UB
  TILING_DATA_FIELD_DEF(uint32_t, chunkNum);      // chunks per row of B
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one work item more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerItems);
  TILING_DATA_FIELD_DEF(uint32_t, tailItems);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows of R per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumInnerCustom, ReduceSumInnerTilingData)
}  // namespace optiling
#endif  // REDUCE_SUM_INNER_TILING_H
