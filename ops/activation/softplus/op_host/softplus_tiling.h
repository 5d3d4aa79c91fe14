// Tiling data of SoftplusCustom: how the flattened tensor is split across cores and tiles.
#ifndef SOFTPLUS_TILING_H
#define SOFTPLUS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftplusTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in x (and y)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 32 B block than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 128)
  TILING_DATA_FIELD_DEF(float, beta);                // scale of x inside the softplus
  TILING_DATA_FIELD_DEF(float, threshold);           // beta x above it returns x
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftplusCustom, SoftplusTilingData)
}  // namespace optiling
#endif  // SOFTPLUS_TILING_H
