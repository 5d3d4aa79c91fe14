// Tiling data of AdamCustom: the flattened tensors split across cores and UB tiles,
// plus the step's scalars folded on the host (bias corrections depend only on attrs).
#ifndef ADAM_TILING_H
#define ADAM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AdamTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements in every tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 512 B unit than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 256)
  TILING_DATA_FIELD_DEF(float, beta1);
  TILING_DATA_FIELD_DEF(float, oneMinusBeta1);
  TILING_DATA_FIELD_DEF(float, beta2);
  TILING_DATA_FIELD_DEF(float, oneMinusBeta2);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, negStepSize);      // -lr / (1 - beta1^step)
  TILING_DATA_FIELD_DEF(float, invSqrtBias2);     // 1 / sqrt(1 - beta2^step)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AdamCustom, AdamTilingData)
}  // namespace optiling
#endif  // ADAM_TILING_H
