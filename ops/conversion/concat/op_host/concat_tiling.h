// Tiling data of ConcatCustom: rows split across cores; each core copies its rows of a and
// then of b into their column ranges of y through UB tiles of tileElems elements.
#ifndef CONCAT_TILING_H
#define CONCAT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConcatTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, colsA);         // a's last dimension
  TILING_DATA_FIELD_DEF(uint32_t, colsB);         // b's last dimension
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);     // elements of one UB tile (a multiple of 32 B)
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);     // buffers of the copy queue
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConcatCustom, ConcatTilingData)
}  // namespace optiling
#endif  // CONCAT_TILING_H
