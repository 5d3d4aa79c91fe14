// Tiling data of CrossEntropyCustom: rows of logits split across cores and UB tiles.
#ifndef CROSS_ENTROPY_TILING_H
#define CROSS_ENTROPY_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossEntropyTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, classes);       // C, the row length of logits
  TILING_DATA_FIELD_DEF(uint32_t, classesAligned);// C rounded up to a 32 B row pitch in UB
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);     // partial sums core 0 gathers from the workspace
  TILING_DATA_FIELD_DEF(uint32_t, reduction);     // 0 none, 1 mean, 2 sum
  TILING_DATA_FIELD_DEF(int64_t, ignoreIndex);    // rows with this target add nothing
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossEntropyCustom, CrossEntropyTilingData)
}  // namespace optiling
#endif  // CROSS_ENTROPY_TILING_H
