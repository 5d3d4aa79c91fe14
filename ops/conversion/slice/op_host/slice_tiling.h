// Tiling data of SliceCustom: rows split across cores; a tile holds whole rows of the
// slice's input span, or a chunk of one row when rows are longer than a tile.
#ifndef SLICE_TILING_H
#define SLICE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SliceTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // x's last dimension
  TILING_DATA_FIELD_DEF(uint32_t, begin);         // first column taken (normalised)
  TILING_DATA_FIELD_DEF(uint32_t, step);
  TILING_DATA_FIELD_DEF(uint32_t, outCols);       // y's last dimension
  TILING_DATA_FIELD_DEF(uint32_t, chunkOut);      // outputs of a row per tile (outCols unless rows are chunked)
  TILING_DATA_FIELD_DEF(uint32_t, inPitch);       // UB pitch of a tile row of input (32 B multiple)
  TILING_DATA_FIELD_DEF(uint32_t, outPitch);      // UB pitch of a tile row of output (32 B multiple)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SliceCustom, SliceTilingData)
}  // namespace optiling
#endif  // SLICE_TILING_H
