// Tiling data of LayerNormCustom: rows split across cores, rows per UB tile, and
// the normalisation constants.
#ifndef LAYER_NORM_TILING_H
#define LAYER_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all but the last dimension
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension (normalised axis)
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNormCustom, LayerNormTilingData)
}  // namespace optiling
#endif  // LAYER_NORM_TILING_H
