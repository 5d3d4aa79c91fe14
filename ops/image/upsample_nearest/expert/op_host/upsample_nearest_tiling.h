// Tiling data of UpsampleNearestCustom: output rows (N * C * Hout of them) split across
// cores, rowsPerTile output rows per UB tile; rows too long for UB go in column chunks.
// Plane mode (many small planes): whole planes split across cores, planesPerTile per tile.
#ifndef UPSAMPLE_NEAREST_TILING_H
#define UPSAMPLE_NEAREST_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpsampleNearestTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, chunkW);        // output columns per chunk (outW: whole rows)
  TILING_DATA_FIELD_DEF(uint32_t, inPitch);       // input span of a chunk in UB (32 B multiple)
  TILING_DATA_FIELD_DEF(uint32_t, outPitch);      // output chunk pitch in UB (256 B multiple; plane mode 32 B)
  TILING_DATA_FIELD_DEF(float, invScaleH);        // source row = floor(dst row * invScaleH)
  TILING_DATA_FIELD_DEF(float, invScaleW);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one output row (plane mode: plane) more
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);    // rows (plane mode: planes) of those cores
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // and of the others
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, planeMode);     // 1: tiles of whole planes, one Gather per tile
  TILING_DATA_FIELD_DEF(uint32_t, planesPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpsampleNearestCustom, UpsampleNearestTilingData)
}  // namespace optiling
#endif  // UPSAMPLE_NEAREST_TILING_H
