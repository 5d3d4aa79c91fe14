// Tiling data of GreaterEqualCustom: how the flattened tensors are split across cores and tiles.
#ifndef GREATER_EQUAL_TILING_H
#define GREATER_EQUAL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GreaterEqualTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 256-element unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 256)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GreaterEqualCustom, GreaterEqualTilingData)
}  // namespace optiling
#endif  // GREATER_EQUAL_TILING_H
