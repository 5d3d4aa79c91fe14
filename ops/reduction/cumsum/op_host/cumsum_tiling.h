// Tiling data of CumsumCustom: rows split across cores; a tile is up to `lanes` rows by
// `chunk` columns, transposed in UB so that the rows become vector lanes.
#ifndef CUMSUM_TILING_H
#define CUMSUM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumsumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension (the scanned axis)
  TILING_DATA_FIELD_DEF(uint32_t, lanes);         // rows scanned side by side (a multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // columns per tile
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // chunk rounded up to 16: row pitch of a tile in UB
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
  TILING_DATA_FIELD_DEF(uint32_t, segs);          // column segments of the rows, one per core (1: no split)
  TILING_DATA_FIELD_DEF(uint32_t, segLen);        // columns per segment
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumCustom, CumsumTilingData)
}  // namespace optiling
#endif  // CUMSUM_TILING_H
