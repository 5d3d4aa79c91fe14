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

#if defined(AOC_KERNEL_UNIT) && !defined(AOC_PROGRAM_UNIT)
// Kernel code calls printf unqualified (`printf("%d\n", n)` next to `using namespace AscendC;`) and
// means AscendC::printf: the device's kernel build has no C library printf. Here the C library's is
// declared too (the standard headers bring <cstdio>), and a call with only a format string would
// pick it over the template. In an operator's kernel unit a call of printf, qualified with AscendC::
// or not, therefore goes to one function that forwards to AscendC's (not in a single-file program,
// whose host code prints with the C library: build/program_build.cpp).
template <typename... Args> AOC_API_UNCOUNTED void ascendc_kernel_printf(const char* fmt, const Args&... args) {
  AscendC::printf(fmt, args...);
}
namespace AscendC {
using ::ascendc_kernel_printf;
}
#define printf(...) ascendc_kernel_printf(__VA_ARGS__)
#endif
