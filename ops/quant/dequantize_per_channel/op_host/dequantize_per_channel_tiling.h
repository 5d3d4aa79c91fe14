// Tiling data of DequantizePerChannelCustom: rows split across cores, several whole rows per
// UB tile on a common 32-element pitch (one int8 block of the input).
#ifndef DEQUANTIZE_PER_CHANNEL_TILING_H
#define DEQUANTIZE_PER_CHANNEL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DequantizePerChannelTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension (channels)
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // cols rounded up to 32 elements: row pitch in UB
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DequantizePerChannelCustom, DequantizePerChannelTilingData)
}  // namespace optiling
#endif  // DEQUANTIZE_PER_CHANNEL_TILING_H
