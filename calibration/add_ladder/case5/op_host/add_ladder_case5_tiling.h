// Tiling of the Add ladder: the flattened tensor split over the cores in whole 32 B blocks.
#ifndef ADD_LADDER_CASE5_TILING_H
#define ADD_LADDER_CASE5_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddLadderCase5TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one 32 B block more than the rest
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddLadderCase5, AddLadderCase5TilingData)
}  // namespace optiling
#endif  // ADD_LADDER_CASE5_TILING_H
