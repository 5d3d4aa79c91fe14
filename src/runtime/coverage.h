// Scalar-cost instrumentation of kernel code. A kernel translation unit compiled with
// scalar_coverage_flags() calls back into this module at every basic block it executes
// (-fsanitize-coverage=trace-pc) and at entry and exit of every AscendC API function
// (-finstrument-functions, with the kernel's own sources and the system headers
// excluded). Blocks executed while no API function is active are the kernel's own work;
// they accumulate in aoc::tls_kernel_blocks and become Scalar trace records (aoc/trace.h).
// Host code (TilingFunc) is never compiled with these flags, so it never counts.
#pragma once
#include <string>
#include <vector>

namespace aoc::runtime {

// Instrumentation flags for kernel translation units. They also shape how the AscendC
// headers compile, so a precompiled kernel_operator.h must be built with them too.
std::vector<std::string> scalar_coverage_flags();

// The flag that keeps the kernel's own functions free of API entry/exit hooks.
// `kernel_dirs` are the folders of the kernel's sources and headers, spelled as they are
// passed to the compiler (GCC matches substrings of the path it records). GCC decides
// this when it parses a function, so it only needs to reach the kernel's unit.
std::string kernel_sources_flag(const std::vector<std::string>& kernel_dirs);

// Clears this thread's counters; the launcher calls it when a block starts.
void reset_scalar_counters();

}  // namespace aoc::runtime
