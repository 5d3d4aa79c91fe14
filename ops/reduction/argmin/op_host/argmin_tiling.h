// Tiling data of ArgMinCustom: rows split across cores; rows that fit travel several per
// UB tile, longer rows stream in column chunks.
#ifndef ARGMIN_TILING_H
#define ARGMIN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ArgMinTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dimension
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);      // elements between rows in UB (cols on a 32 B pitch), or the chunk
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows per tile (results per output copy in chunk mode)
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // elements per column chunk; cols when whole rows fit
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);     // buffers of the input queue
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ArgMinCustom, ArgMinTilingData)
}  // namespace optiling
#endif  // ARGMIN_TILING_H
