// Root header of the AscendC device API, CPU implementation. Kernels include only this.
#pragma once
#include <cstdint>

#include "aoc/kernel_unit.h"
#include "aoc/macros.h"
#include "aoc/scalar_libm.h"
#include "aoc/half.h"
#include "aoc/constants.h"
#include "aoc/error.h"
#include "aoc/trace.h"
#include "aoc/core_state.h"
#include "aoc/sys_var.h"
#include "aoc/tensor.h"
#include "aoc/sync.h"
#include "aoc/pipe.h"
#include "aoc/data_copy.h"
#include "aoc/vec/all.h"
#include "aoc/adv/all.h"
#include "aoc/kernel_tiling_macros.h"
#include "aoc/print.h"
#include "aoc/static_alloc.h"
