// Tiling data of ScatterAddCustom: output rows split across cores; each core walks its
// rows in UB chunks of rowsPerChunk rows by colTile columns.
#ifndef SCATTER_ADD_TILING_H
#define SCATTER_ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScatterAddTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // M: rows of self and out
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // D: row length of self, src and out
  TILING_DATA_FIELD_DEF(uint32_t, numIndices);    // N: entries of index (rows of src)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that own one output row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // columns per chunk (row pitch in UB, whole float repeats)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);  // output rows per chunk
  TILING_DATA_FIELD_DEF(uint32_t, indexTile);     // indices read into UB at a time
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScatterAddCustom, ScatterAddTilingData)
}  // namespace optiling
#endif  // SCATTER_ADD_TILING_H
