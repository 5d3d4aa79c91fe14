// The kernel half of running a case, as the aoc-harness child does it: the operator's
// TilingFunc on a context describing the tensors, GM buffers from the given input
// bytes and (poisoned) output bytes, and the launch on blockDim cores. No golden,
// no comparison, no timing: those stay with the evaluator in the parent.
#pragma once
#include <vector>

#include "aoc/host/platform_config.h"
#include "eval/harness_protocol.h"
#include "ops/kernel_library.h"
#include "runtime/launcher.h"

namespace aoc::eval {

struct KernelRun {
  TrialStatus status;
  std::vector<std::vector<unsigned char>> outputs;  // final GM contents of each output
  std::vector<aoc::rt::CoreRun> cores;               // per-core traces (when recorded)
};

// `outputs` hold the initial (poison) contents of the output buffers.
KernelRun execute_kernel(const HarnessRequest& req, const aoc::op::KernelLibrary& lib,
                         const std::vector<std::vector<unsigned char>>& inputs,
                         std::vector<std::vector<unsigned char>> outputs, const aoc::host::PlatformConfig& platform,
                         const aoc::CoreLimits& limits, bool record_trace);

}  // namespace aoc::eval
