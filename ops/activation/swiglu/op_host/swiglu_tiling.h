// Tiling data of SwigluCustom: rows split across cores, each row's halves split into tiles.
#ifndef SWIGLU_TILING_H
#define SWIGLU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SwigluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);       // product of all dimensions but the last
  TILING_DATA_FIELD_DEF(uint32_t, halfLen);      // H: the output's last dimension, half of x's
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows of the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile (a multiple of 128)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // whole rows per tile when a padded row fits, else 0
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwigluCustom, SwigluTilingData)
}  // namespace optiling
#endif  // SWIGLU_TILING_H
