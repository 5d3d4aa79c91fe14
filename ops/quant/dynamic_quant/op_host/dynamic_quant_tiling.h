// Tiling data of DynamicQuantCustom: rows (all dims but the last) split across cores,
// several whole rows per UB tile, or one row in chunks when a row does not fit in UB.
#ifndef DYNAMIC_QUANT_TILING_H
#define DYNAMIC_QUANT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DynamicQuantTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // rows of x (product of all dims but the last)
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // last dim of x
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);    // UB elements per row (or per chunk of a long row), a multiple of 32
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);   // rows per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // rows per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows per UB tile (1 for long rows)
  TILING_DATA_FIELD_DEF(uint32_t, chunkNum);     // UB chunks per row: 1 when whole rows fit, else rowStride-element chunks
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DynamicQuantCustom, DynamicQuantTilingData)
}  // namespace optiling
#endif  // DYNAMIC_QUANT_TILING_H
