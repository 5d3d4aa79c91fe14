// Tiling data of PadCustom: rows of the last axis split across cores; each core moves
// its rows in tiles of rowsPerTile rows by colTile columns.
#ifndef PAD_TILING_H
#define PAD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // C: last dimension of x
  TILING_DATA_FIELD_DEF(uint32_t, left);          // value elements before each row
  TILING_DATA_FIELD_DEF(uint32_t, right);         // value elements after each row
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // data columns per tile (row pitch in UB, 32 B multiple)
  TILING_DATA_FIELD_DEF(uint32_t, padChunk);      // pad columns written per copy (32 B multiple)
  TILING_DATA_FIELD_DEF(float, value);            // the pad value
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PadCustom, PadTilingData)
}  // namespace optiling
#endif  // PAD_TILING_H
