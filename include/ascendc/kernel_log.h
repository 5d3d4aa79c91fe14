// kernel_log.h of the device toolchain: the logging and assertion macros of its CPU debug
// build, which kernels include. KERNEL_LOG prints nothing (the device's kernels have no log); a
// failed ASSERT_MSG stops the case with the condition and the kernel's line, as the CPU debug build
// stops, instead of running on with a value the kernel itself declared impossible.
#pragma once
#include <source_location>

#include "aoc/error.h"

#define KERNEL_LOG(level, ...) ((void)0)
#define ASSERT_MSG(expr, ...) \
  ((expr) ? (void)0 : ::aoc::fail("ASSERT_MSG", std::source_location::current(), "assertion failed: " #expr))
