// Tiling data of LogicalOrCustom: how the flattened tensors are split across cores and tiles.
#ifndef LOGICAL_OR_TILING_H
#define LOGICAL_OR_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogicalOrTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements (bytes) of every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512-element unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 512)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogicalOrCustom, LogicalOrTilingData)
}  // namespace optiling
#endif  // LOGICAL_OR_TILING_H
