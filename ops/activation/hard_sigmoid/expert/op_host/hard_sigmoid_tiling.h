// Tiling data of HardSigmoidCustom: how the flattened tensor is split across cores and tiles.
#ifndef HARD_SIGMOID_TILING_H
#define HARD_SIGMOID_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HardSigmoidTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in x (and y)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512 B unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 256)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HardSigmoidCustom, HardSigmoidTilingData)
}  // namespace optiling
#endif  // HARD_SIGMOID_TILING_H
