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
