// Tiling data of TopKCustom: rows split across cores. Short rows (mode 0) travel several per
// tile, each selected in place; long rows (mode 1) stream in chunks whose 32 B block maxima
// are kept for the whole row, the k best blocks are fetched again and selected from.
#ifndef TOPK_TILING_H
#define TOPK_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopKTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // x's last dimension
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, mode);          // 0: whole rows in a tile, 1: block maxima per row
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // mode 0: UB elements per row (a multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // mode 0: rows per tile
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // mode 1: elements per chunk (whole 256 B repeats)
  TILING_DATA_FIELD_DEF(uint32_t, blockNum);      // mode 1: 32 B blocks (of the compute type) per row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TopKCustom, TopKTilingData)
}  // namespace optiling
#endif  // TOPK_TILING_H
