// Include path used by host code for gert::TilingContext.
#pragma once
#include "aoc/host/tiling_context.h"
