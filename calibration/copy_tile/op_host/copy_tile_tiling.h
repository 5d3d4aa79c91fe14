// Tiling of copy_tile: the matrix, the tile and the rows each core copies.
#ifndef COPY_TILE_TILING_H
#define COPY_TILE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CopyTileTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // elements per matrix row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // matrix rows each core copies
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);     // rows per DataCopyPad
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);     // elements per row of a tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CopyTile, CopyTileTilingData)
}  // namespace optiling
#endif  // COPY_TILE_TILING_H
