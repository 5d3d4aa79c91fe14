// Tiling data of LogSoftmaxCustom: rows of the last axis split across cores, and how
// many whole rows one UB tile holds.
#ifndef LOG_SOFTMAX_TILING_H
#define LOG_SOFTMAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, vecRows);
  TILING_DATA_FIELD_DEF(uint32_t, padBytes);      // UB gap after each tile's input and output (bank regions)       // 1: whole tiles of rows go through strided vector ops
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogSoftmaxCustom, LogSoftmaxTilingData)
}  // namespace optiling
#endif  // LOG_SOFTMAX_TILING_H
