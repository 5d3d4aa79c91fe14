// Tiling data of LogicalNotCustom: how the flattened tensors are split across cores and tiles.
#ifndef LOGICAL_NOT_TILING_H
#define LOGICAL_NOT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogicalNotTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements (bytes) of every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512-element unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 512)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogicalNotCustom, LogicalNotTilingData)
}  // namespace optiling
#endif  // LOGICAL_NOT_TILING_H
