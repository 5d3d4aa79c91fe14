// Tiling data of InstanceNormCustom: the N*C planes split across cores; a plane is one UB
// tile when it fits, else it is streamed twice in chunks (statistics, then normalisation).
#ifndef INSTANCE_NORM_TILING_H
#define INSTANCE_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InstanceNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C
  TILING_DATA_FIELD_DEF(uint32_t, inner);         // elements of a plane
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // elements per tile (inner when a plane fits)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one plane more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, tailPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, avgFactor);        // 1 / inner
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InstanceNormCustom, InstanceNormTilingData)
}  // namespace optiling
#endif  // INSTANCE_NORM_TILING_H
