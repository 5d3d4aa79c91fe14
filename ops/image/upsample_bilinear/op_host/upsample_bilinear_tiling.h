// Tiling data of UpsampleBilinearCustom: output rows (N * C * Hout of them) split across
// cores, rowsPerTile output rows per UB tile (rows too long for UB go in column chunks),
// and the source-coordinate rule. Plane mode (many small planes): whole planes split
// across cores, planesPerTile per tile.
#ifndef UPSAMPLE_BILINEAR_TILING_H
#define UPSAMPLE_BILINEAR_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpsampleBilinearTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, chunkW);        // output columns per chunk (outW: whole rows)
  TILING_DATA_FIELD_DEF(uint32_t, inPitch);       // input span of a chunk in UB (256 B float multiple; plane mode 32 B)
  TILING_DATA_FIELD_DEF(uint32_t, outPitch);      // output chunk pitch in UB (256 B float multiple; plane mode 32 B)
  TILING_DATA_FIELD_DEF(uint32_t, alignCorners);  // 1: src = dst * ratio; 0: src = (dst + 0.5) * ratio - 0.5
  TILING_DATA_FIELD_DEF(float, ratioH);           // (H - 1) / (Hout - 1) or 1 / scale_h
  TILING_DATA_FIELD_DEF(float, ratioW);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one output row (plane mode: plane) more
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);    // rows (plane mode: planes) of those cores
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // and of the others
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, planeMode);     // 1: tiles of whole planes blended by whole-tile gathers
  TILING_DATA_FIELD_DEF(uint32_t, planesPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpsampleBilinearCustom, UpsampleBilinearTilingData)
}  // namespace optiling
#endif  // UPSAMPLE_BILINEAR_TILING_H
