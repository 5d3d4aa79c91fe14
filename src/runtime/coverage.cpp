#include "runtime/coverage.h"

#include "aoc/trace.h"

namespace {

// Nesting depth of instrumented API functions on this thread. Helpers inside the API
// namespaces aoc::vec and aoc::adv are not instrumented (they run only inside an API
// call, and their per-lane calls would dominate the run time), so they inherit the
// depth of their caller.
thread_local int api_depth = 0;

}  // namespace

// Coverage callbacks of the kernel libraries (resolved against the program, which exports
// them with -rdynamic). Kept minimal: they run once per executed basic block.
extern "C" {

__attribute__((visibility("default"))) void __sanitizer_cov_trace_pc() {
  if (api_depth == 0) ++aoc::tls_kernel_blocks;
  else ++aoc::tls_api_blocks;
}

__attribute__((visibility("default"))) void __cyg_profile_func_enter(void*, void*) { ++api_depth; }

__attribute__((visibility("default"))) void __cyg_profile_func_exit(void*, void*) { --api_depth; }

}  // extern "C"

namespace aoc::runtime {

std::vector<std::string> scalar_coverage_flags() {
  // The C++ library (and, through kernel_sources_flag, the kernel's own functions) get no
  // entry/exit hooks: their blocks count as kernel work when the kernel calls them and as
  // API work inside an API call.
  // AOC_KERNEL_UNIT: the headers give the unit the device's kernel-side view (aoc/kernel_unit.h).
  return {"-DAOC_KERNEL_UNIT", "-fsanitize-coverage=trace-pc", "-finstrument-functions", "-finstrument-functions-exclude-file-list=/usr/",
          "-finstrument-functions-exclude-function-list=aoc::vec::,aoc::adv::"};
}

std::string kernel_sources_flag(const std::vector<std::string>& kernel_dirs) {
  std::string flag = "-finstrument-functions-exclude-file-list=";  // adds to the list above
  for (size_t i = 0; i < kernel_dirs.size(); ++i) flag += (i ? "," : "") + kernel_dirs[i];
  return flag;
}

void reset_scalar_counters() {
  api_depth = 0;
  aoc::tls_kernel_blocks = 0;
  aoc::tls_api_blocks = 0;
}

}  // namespace aoc::runtime
