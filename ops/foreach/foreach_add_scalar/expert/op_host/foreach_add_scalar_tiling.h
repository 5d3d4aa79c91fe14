// Tiling data of ForeachAddScalarCustom (expert): the four tensors of the list are laid
// end to end in one virtual stream of 512 B units (each tensor padded to whole units) and
// the cores take contiguous, even shares of that stream, so the cores are balanced over
// the whole list and a small tensor is not cut into one sliver per core.
#ifndef FOREACH_ADD_SCALAR_TILING_H
#define FOREACH_ADD_SCALAR_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t FOREACH_LIST_SIZE = 4;

BEGIN_TILING_DATA_DEF(ForeachAddScalarTilingData)
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, totalLength);  // elements of tensor i
  TILING_DATA_FIELD_DEF(uint32_t, unitLength);          // elements per 512 B unit
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);           // cores that take one unit more
  TILING_DATA_FIELD_DEF(uint32_t, formerUnits);         // units per former core
  TILING_DATA_FIELD_DEF(uint32_t, tailUnits);           // units per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);          // elements per UB tile
  TILING_DATA_FIELD_DEF(float, alpha);                  // attribute 'alpha'
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachAddScalarCustom, ForeachAddScalarTilingData)
}  // namespace optiling
#endif  // FOREACH_ADD_SCALAR_TILING_H
