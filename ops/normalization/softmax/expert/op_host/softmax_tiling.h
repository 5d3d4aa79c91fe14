// Tiling data of SoftmaxCustom: rows of the last axis split across cores, and how
// many whole rows one UB tile holds.
#ifndef SOFTMAX_TILING_H
#define SOFTMAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all but the last dimension
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, vecRows);       // 1: whole tiles of rows go through strided vector ops
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftmaxCustom, SoftmaxTilingData)
}  // namespace optiling
#endif  // SOFTMAX_TILING_H
