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

namespace aoc::rt {

// Compiler flags for a kernel translation unit. `kernel_dirs` are the folders holding the
// kernel's own sources and headers, spelled as they are passed to the compiler (the
// exclusion list matches by substring of the path the compiler records).
std::vector<std::string> scalar_coverage_flags(const std::vector<std::string>& kernel_dirs);

// Clears this thread's counters; the launcher calls it when a block starts.
void reset_scalar_counters();

}  // namespace aoc::rt
