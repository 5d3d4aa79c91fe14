// Tiling data of EmbeddingCustom: output rows split across cores; each core moves its rows
// in tiles of rowsPerTile rows by colTile columns.
#ifndef EMBEDDING_TILING_H
#define EMBEDDING_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(EmbeddingTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, tableRows);     // V: rows of weight
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // D: row length of weight and y
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one output row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // columns per tile (row pitch in UB, whole 32 B blocks)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // output rows per tile
  TILING_DATA_FIELD_DEF(uint32_t, idsPerLoad);    // ids loaded into UB at once
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EmbeddingCustom, EmbeddingTilingData)
}  // namespace optiling
#endif  // EMBEDDING_TILING_H
