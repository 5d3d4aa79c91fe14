// Tiling data of the fixture, in namespace optiling as msopgen writes it.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ExpTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, perCore);  // elements per core, a whole number of 32 B blocks
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Exp, ExpTilingData)
}  // namespace optiling
