// Tiling data of MaskedSoftmaxCustom: rows of the last axis split across cores, several
// whole rows (and the mask rows they use) per UB tile.
#ifndef MASKED_SOFTMAX_TILING_H
#define MASKED_SOFTMAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // Sk
  TILING_DATA_FIELD_DEF(uint32_t, maskRows);      // Sq: row r of x uses mask row r % Sq
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // cols rounded up to a 32 B block (row pitch in UB)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedSoftmaxCustom, MaskedSoftmaxTilingData)
}  // namespace optiling
#endif  // MASKED_SOFTMAX_TILING_H
