// Tiling data of ClipCustom: how the flattened tensor is split across cores and tiles.
#ifndef CLIP_TILING_H
#define CLIP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClipTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512 B unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
  TILING_DATA_FIELD_DEF(float, minValue);         // attribute 'min'
  TILING_DATA_FIELD_DEF(float, maxValue);         // attribute 'max'
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClipCustom, ClipTilingData)
}  // namespace optiling
#endif  // CLIP_TILING_H
