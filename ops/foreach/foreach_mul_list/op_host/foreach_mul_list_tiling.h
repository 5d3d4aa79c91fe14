// Tiling data of ForeachMulListCustom: each of the four tensors of the list is split
// across all cores on its own (32 B blocks, former cores one block more), so every core
// gets an even share of every tensor whatever their sizes.
#ifndef FOREACH_MUL_LIST_TILING_H
#define FOREACH_MUL_LIST_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t FOREACH_LIST_SIZE = 4;

BEGIN_TILING_DATA_DEF(ForeachMulListTilingData)
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, totalLength);   // elements of tensor i
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, formerNum);     // cores that take one block more of tensor i
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, formerLength);  // elements of tensor i per former core
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, tailLength);    // elements of tensor i per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);           // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachMulListCustom, ForeachMulListTilingData)
}  // namespace optiling
#endif  // FOREACH_MUL_LIST_TILING_H
