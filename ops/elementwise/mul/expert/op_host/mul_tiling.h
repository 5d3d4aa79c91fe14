// Tiling data of MulCustom: how the flattened tensor is split across cores and tiles.
#ifndef MUL_TILING_H
#define MUL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512 B unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, regionPad);     // bytes completing each tile parity's 64 KB UB region (0: packed)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MulCustom, MulTilingData)
}  // namespace optiling
#endif  // MUL_TILING_H
