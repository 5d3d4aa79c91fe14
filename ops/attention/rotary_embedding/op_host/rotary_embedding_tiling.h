// Tiling data of RotaryEmbeddingCustom: work units are (token, chunk of heads), split
// across cores in contiguous runs. A UB tile is one unit when a token's heads are split in
// chunks, else up to tokensPerTile whole tokens.
#ifndef ROTARY_EMBEDDING_TILING_H
#define ROTARY_EMBEDDING_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RotaryEmbeddingTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);          // heads per token (x's second dimension)
  TILING_DATA_FIELD_DEF(uint32_t, headDim);        // x's last dimension (even)
  TILING_DATA_FIELD_DEF(uint32_t, halfAligned);    // headDim / 2 rounded up to a 32 B block: pitch of a half row in UB
  TILING_DATA_FIELD_DEF(uint32_t, headsPerTile);   // heads per unit (the last chunk of a token may hold fewer)
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerToken); // ceil(heads / headsPerTile)
  TILING_DATA_FIELD_DEF(uint32_t, tokensPerTile);  // whole tokens per tile (1 when chunksPerToken > 1)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);      // cores that take one unit more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerUnits);
  TILING_DATA_FIELD_DEF(uint32_t, tailUnits);
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);      // buffers per x/y queue: 2 overlaps copies and compute
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RotaryEmbeddingCustom, RotaryEmbeddingTilingData)
}  // namespace optiling
#endif  // ROTARY_EMBEDDING_TILING_H
