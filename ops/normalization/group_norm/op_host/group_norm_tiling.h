// Tiling data of GroupNormCustom: x [N, C, *] viewed as N*C rows of HW = prod(*) values;
// a group is C/G consecutive rows. Groups are split across cores; a group travels through
// UB in tiles of whole rows, or of row chunks when one row does not fit.
#ifndef GROUP_NORM_TILING_H
#define GROUP_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);          // HW, elements per channel
  TILING_DATA_FIELD_DEF(uint32_t, channelsPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);       // G
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);        // elements of a row per tile (== rowLen when rows fit)
  TILING_DATA_FIELD_DEF(uint32_t, chunkPitch);      // chunkLen rounded up to 32 B: row pitch in UB
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);     // rows per tile (1 when rows are chunked)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);       // cores that take one group more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerGroups);
  TILING_DATA_FIELD_DEF(uint32_t, tailGroups);
  TILING_DATA_FIELD_DEF(float, invGroupSize);       // 1 / (C/G * HW)
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupNormCustom, GroupNormTilingData)
}  // namespace optiling
#endif  // GROUP_NORM_TILING_H
