// Tiling data of AddRmsNormCustom: rows of the last axis split across cores, and how many
// whole rows (of x1, x2, y and the sum x) one UB tile holds.
#ifndef ADD_RMS_NORM_TILING_H
#define ADD_RMS_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddRmsNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per UB tile
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, avgFactor);        // 1 / cols
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddRmsNormCustom, AddRmsNormTilingData)
}  // namespace optiling
#endif  // ADD_RMS_NORM_TILING_H
