// What host tiling code includes for the advanced APIs' helpers (GetXxxMaxMinTmpSize,
// SoftMaxTilingFunc, GetLayerNormNDTilingInfo ...).
#pragma once
#include "aoc/kernel_unit.h"
#include "lib/adv_tiling.h"
#include "tiling/platform/platform_ascendc.h"  // the device header declares platform_ascendc through it

// Host tiling data names these structs as optiling::<Name> (TILING_DATA_FIELD_DEF_STRUCT).
// They share the kernel-side layout, so the bytes a host fills are the bytes a kernel reads.
// A registry that generates its own optiling classes defines AOC_OPTILING_HAS_ADV_TILING.
#ifndef AOC_OPTILING_HAS_ADV_TILING
namespace optiling {
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
}  // namespace optiling
#endif
