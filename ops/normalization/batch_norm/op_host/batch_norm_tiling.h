// Tiling data of BatchNormCustom: x as N*C planes of `inner` elements split across cores;
// per-channel scale and shift are computed for windows of channels.
#ifndef BATCH_NORM_TILING_H
#define BATCH_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C
  TILING_DATA_FIELD_DEF(uint32_t, inner);         // elements of a plane (axes after C)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // elements of a plane per tile (inner unless planes are split)
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // chunk on a 32 B pitch in UB
  TILING_DATA_FIELD_DEF(uint32_t, planesPerTile); // planes per tile (1 when planes are split)
  TILING_DATA_FIELD_DEF(uint32_t, window);        // channels whose scale/shift are kept in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one plane more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, tailPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchNormCustom, BatchNormTilingData)
}  // namespace optiling
#endif  // BATCH_NORM_TILING_H
