// Tiling data of the import fixture (an operator folder as msopgen lays it out, no op.toml).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxpyCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, perCore);  // elements per core, whole 32 B blocks
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, negate);   // mode == "negate"
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxpyCustom, AxpyCustomTilingData)
}  // namespace optiling
