// Name visibility of a kernel translation unit. The device build gives the kernel its tiling
// structs as global types: kernels write `GET_TILING_DATA_WITH_STRUCT(AddTilingData, t, tiling)`
// or take `const AddTilingData*` in their own headers, while the op's tiling header defines the
// class inside namespace optiling. In a kernel unit (the kernel build passes -DAOC_KERNEL_UNIT)
// optiling is therefore an inline namespace: its classes are found unqualified and as
// optiling::X alike. Host units keep the plain namespace, as on the device's host build.
// This header must come before anything that opens namespace optiling.
#pragma once

#ifdef AOC_KERNEL_UNIT
inline namespace optiling {}
#endif

// The C library's `int abs(int)` and `div_t div(int, int)`: <stdlib.h> declares them with C
// linkage, and the standard headers the API needs bring <stdlib.h> in, so an operator called abs,
// whose entry is
// `extern "C" void abs(GM_ADDR x, ...)`, would conflict with it (two C functions of one name).
// The device's kernel build declares no such function (nor div, for an operator called div). In a
// kernel unit the C library's header is therefore read with both renamed, and they come back with
// C++ linkage, which a kernel's C entry of that name overloads. std::abs and std::div are unchanged
// (<cstdlib> builds them on ::abs and ::div).
// This works when kernel_operator.h comes before any other standard header, as kernels write it.
#if defined(AOC_KERNEL_UNIT) && !defined(_STDLIB_H)
#define _GLIBCXX_INCLUDE_NEXT_C_HEADERS  // the C library's <stdlib.h>, not libstdc++'s wrapper
#define abs aoc_c_library_abs
#define div aoc_c_library_div
#include <stdlib.h>
#undef abs
#undef div
#undef _GLIBCXX_INCLUDE_NEXT_C_HEADERS
inline int abs(int x) noexcept { return __builtin_abs(x); }
inline div_t div(int numer, int denom) noexcept { return {numer / denom, numer % denom}; }
#include <cstdlib>
#endif
