// Tiling data of SgdMomentumCustom: the flattened tensors split across cores and UB
// tiles, plus the step's scalars derived from the attrs on the host.
#ifndef SGD_MOMENTUM_TILING_H
#define SGD_MOMENTUM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SgdMomentumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512 B unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 256)
  TILING_DATA_FIELD_DEF(uint32_t, nesterov);      // 1: step along grad + momentum * buf'
  TILING_DATA_FIELD_DEF(float, negLr);
  TILING_DATA_FIELD_DEF(float, momentum);
  TILING_DATA_FIELD_DEF(float, oneMinusDampening);
  TILING_DATA_FIELD_DEF(float, weightDecay);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SgdMomentumCustom, SgdMomentumTilingData)
}  // namespace optiling
#endif  // SGD_MOMENTUM_TILING_H
