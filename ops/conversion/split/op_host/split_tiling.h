// Tiling data of SplitCustom: rows split across cores; each core copies its rows of every part
// of x (a column range) into that part's output through UB tiles of tileElems elements.
#ifndef SPLIT_TILING_H
#define SPLIT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SplitTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // x's last dimension
  TILING_DATA_FIELD_DEF(uint32_t, width0);        // last dimensions of y0, y1, y2
  TILING_DATA_FIELD_DEF(uint32_t, width1);
  TILING_DATA_FIELD_DEF(uint32_t, width2);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one row more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);     // elements of one UB tile (a multiple of 32 B)
  TILING_DATA_FIELD_DEF(uint32_t, bufferNum);     // buffers of the copy queue
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SplitCustom, SplitTilingData)
}  // namespace optiling
#endif  // SPLIT_TILING_H
