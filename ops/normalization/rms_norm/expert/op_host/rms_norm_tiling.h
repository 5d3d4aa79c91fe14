// Tiling data of RmsNormCustom: rows of the last axis split across cores, and how many
// whole rows one UB tile holds.
#ifndef RMS_NORM_TILING_H
#define RMS_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per UB tile
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, avgFactor);        // 1 / cols
  TILING_DATA_FIELD_DEF(uint32_t, vecRows);       // 1: whole tiles of rows go through strided vector ops
  TILING_DATA_FIELD_DEF(uint32_t, padBytes);      // UB gap after each tile\'s input and output (bank regions)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormTilingData)
}  // namespace optiling
#endif  // RMS_NORM_TILING_H
