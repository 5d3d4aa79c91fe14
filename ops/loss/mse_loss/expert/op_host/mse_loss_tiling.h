// Tiling data of MseLossCustom: the flattened inputs split across cores and UB tiles.
#ifndef MSE_LOSS_TILING_H
#define MSE_LOSS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MseLossTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in predict (and label)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512 B unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 128)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);     // partial sums core 0 gathers from the workspace
  TILING_DATA_FIELD_DEF(uint32_t, reduction);     // 0 none, 1 mean, 2 sum
  TILING_DATA_FIELD_DEF(float, scale);            // 1/N for mean, 1 for sum
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MseLossCustom, MseLossTilingData)
}  // namespace optiling
#endif  // MSE_LOSS_TILING_H
