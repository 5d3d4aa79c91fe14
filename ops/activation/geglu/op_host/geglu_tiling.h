// Tiling data of GegluCustom: rows split across cores; a tile holds whole half rows, or a
// column chunk of one row when a half row is longer than a tile.
#ifndef GEGLU_TILING_H
#define GEGLU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GegluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, half);          // y's last dimension (x's / 2)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // columns of a half row per tile
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // chunk on a 32 B pitch (and whole float repeats) in UB
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GegluCustom, GegluTilingData)
}  // namespace optiling
#endif  // GEGLU_TILING_H
