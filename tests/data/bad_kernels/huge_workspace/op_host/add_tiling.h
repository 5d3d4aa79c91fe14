// Tiling data of AddCustom: how the flattened tensor is split across cores and tiles.
#ifndef ADD_TILING_H
#define ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in x (and y, z)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 32 B block than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 32 B)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddTilingData)
}  // namespace optiling
#endif  // ADD_TILING_H
