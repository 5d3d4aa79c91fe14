// Tiling data of GatherCustom: output rows split across cores; each core moves its rows
// in tiles of rowsPerTile rows by colTile columns.
#ifndef GATHER_TILING_H
#define GATHER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatherTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, tableRows);     // V: rows of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // D: row length of x and y
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one output row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // columns per tile (row pitch in UB, whole 32 B blocks)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // output rows per tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatherCustom, GatherTilingData)
}  // namespace optiling
#endif  // GATHER_TILING_H
