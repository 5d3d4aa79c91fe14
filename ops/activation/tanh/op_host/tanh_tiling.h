// Tiling data of TanhCustom: how the flattened tensor is split across cores and tiles.
#ifndef TANH_TILING_H
#define TANH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in x (and y)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 32 B block than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 128)
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);      // scratch of the advanced API call per tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TanhCustom, TanhTilingData)
}  // namespace optiling
#endif  // TANH_TILING_H
