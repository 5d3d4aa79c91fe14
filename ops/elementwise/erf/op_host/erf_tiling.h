// Tiling data of ErfCustom: how the flattened tensor is split across cores and tiles.
#ifndef ERF_TILING_H
#define ERF_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ErfTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of x and y
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one split unit more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);     // buffers per queue
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ErfCustom, ErfTilingData)
}  // namespace optiling
#endif  // ERF_TILING_H
