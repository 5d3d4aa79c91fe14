// Tiling data of the small full-chip calibration kernels: how the flattened tensors are split
// over the cores and into UB tiles, and which formula runs.
#ifndef SMALL_KERNELS_TILING_H
#define SMALL_KERNELS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SmallKernelsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of each tensor
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one more 32 B block than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (a multiple of 128)
  TILING_DATA_FIELD_DEF(uint32_t, formula);       // 0 sigmoid, 1 gelu, 2 maximum
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmallKernels, SmallKernelsTilingData)
}  // namespace optiling
#endif  // SMALL_KERNELS_TILING_H
