// Tiling data of MaskedFillCustom: x seen as [outer, inner] with inner = the mask's elements.
// Blocks form a grid of column ranges (of the mask) by row ranges (of outer); a block builds
// the select mask of one column tile once and applies it to rowsPerTile rows at a time.
#ifndef MASKED_FILL_TILING_H
#define MASKED_FILL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedFillTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inner);          // mask elements (x's trailing axes)
  TILING_DATA_FIELD_DEF(uint32_t, outer);          // x elements / inner
  TILING_DATA_FIELD_DEF(uint32_t, colParts);       // column ranges of the block grid
  TILING_DATA_FIELD_DEF(uint32_t, colFormerNum);   // column ranges with one 256-element unit more
  TILING_DATA_FIELD_DEF(uint32_t, colUnits);       // units of the other column ranges
  TILING_DATA_FIELD_DEF(uint32_t, rowFormerNum);   // row ranges with one row more
  TILING_DATA_FIELD_DEF(uint32_t, rowCount);       // rows of the other row ranges
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);       // columns of one tile
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);    // rows of one tile (more than one: whole mask rows)
  TILING_DATA_FIELD_DEF(uint32_t, pitch);          // UB elements per tile row (a multiple of 32)
  TILING_DATA_FIELD_DEF(float, value);             // the fill value
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedFillCustom, MaskedFillTilingData)
}  // namespace optiling
#endif  // MASKED_FILL_TILING_H
