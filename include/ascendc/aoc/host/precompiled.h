// The host API an op_host file includes: the operator definition and tiling registration
// (register/op_def_registry.h, which brings tilingdata_base.h) and the platform query
// (tiling/platform/platform_ascendc.h). The builder precompiles this header once per compiler
// and flags and force-includes it before an op_host unit (src/build/op_build.cpp): parsing
// these headers was a third of an op_host compile. Every header here has an include guard,
// so the unit's own includes of them are no-ops afterwards.
#pragma once

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
