// Tiling data of AddLayerNormCustom: rows of the last axis split across cores, several
// whole rows per UB tile.
#ifndef ADD_LAYER_NORM_TILING_H
#define ADD_LAYER_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddLayerNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, avgFactor);        // 1 / cols
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddLayerNormCustom, AddLayerNormTilingData)
}  // namespace optiling
#endif  // ADD_LAYER_NORM_TILING_H
