// Tiling data of AbsCustom: how the flattened tensor is split across cores and tiles.
#ifndef ABS_TILING_H
#define ABS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AbsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 32 B block than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);     // buffers per queue: 2 overlaps copies and compute
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AbsCustom, AbsTilingData)
}  // namespace optiling
#endif  // ABS_TILING_H
