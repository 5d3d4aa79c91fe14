// Tiling data of IndexSelectCustom: x seen as [outer, n, inner] around axis dim; the
// outer * k output rows of `inner` elements are split across cores in contiguous runs.
#ifndef INDEX_SELECT_TILING_H
#define INDEX_SELECT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexSelectTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, axisLen);       // n = x.shape[dim]
  TILING_DATA_FIELD_DEF(uint32_t, indexNum);      // k = len(indices)
  TILING_DATA_FIELD_DEF(uint32_t, inner);         // elements of one row (axes after dim)
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);      // elements of a row per tile (inner unless rows are split)
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);      // colChunk on a 32 B pitch in UB
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per tile (1 when rows are split)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, indicesInUb);   // 1: all indices are loaded into UB once per core
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);     // buffers per queue
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexSelectCustom, IndexSelectTilingData)
}  // namespace optiling
#endif  // INDEX_SELECT_TILING_H
