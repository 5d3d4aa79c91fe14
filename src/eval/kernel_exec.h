// The kernel half of running a case, as the aoc-harness child does it: the operator's
// TilingFunc on a context describing the tensors, GM buffers mapped from the given input
// files and filled with the poison byte for the outputs, and the launch on blockDim cores. No golden,
// no comparison, no timing: those stay with the evaluator in the parent.
#pragma once
#include <map>
#include <span>
#include <string>
#include <vector>

#include "aoc/host/platform_config.h"
#include "aoc/launch.h"
#include "eval/harness_protocol.h"
#include "package/kernel_library.h"
#include "runtime/large_buffer.h"

namespace aoc::eval {

struct KernelRun {
  TrialStatus status;
  std::vector<aoc::runtime::GmBuffer> gm;                // the GM buffers of the run, kept for `outputs`
  std::vector<std::span<const unsigned char>> outputs;  // final GM contents of each output (in `gm`)
  std::vector<aoc::runtime::CoreRun> cores;               // per-core traces (when recorded)
  std::vector<GmSpan> output_spans;                  // where each output lay: the addresses records name
};

// The registry behind tiling/tuning_knobs.h in this process (it defines the weak symbol
// aoc_tuning_knob the header calls). execute_kernel sets it from req.config before the
// tiling function runs and reads back what the function declared; these are for tests.
void set_knob_values(const std::map<std::string, int64_t>& values);
// Declarations since the last set_knob_values, in call order (a knob asked twice counts once),
// and the first knob value that lay outside its declared domain ("" when none did).
std::vector<KnobDecl> knob_declarations();
std::string knob_domain_error();
// kPlatformReads* bits: which platform numbers the tiling function read since the last
// set_knob_values (tiling/platform/platform_ascendc.h reports them through aoc_platform_read).
uint32_t platform_reads();
// Whether a knob or a platform number was asked for between set_kernel_running(true) and
// (false), i.e. by the kernel rather than its tiling function (set_knob_values clears it).
void set_kernel_running(bool running);
bool config_read_by_kernel();

// True when `v` is one of the values the declaration allows.
bool knob_allows(const KnobDecl& k, int64_t v);

// Where an input's bytes are: `bytes` bytes at `offset` of the open file `fd` (read-only).
struct InputBytes {
  int fd = -1;
  uint64_t offset = 0;
  size_t bytes = 0;
};

// The inputs' GM buffers are private (copy-on-write) mappings of their files; the outputs'
// start filled with the poison byte (package/output_check.h), sized by their shapes and dtypes.
KernelRun execute_kernel(const HarnessRequest& req, const aoc::package::KernelLibrary& lib,
                         const std::vector<InputBytes>& inputs, const aoc::host::PlatformConfig& platform,
                         const aoc::CoreLimits& limits, bool record_trace);

}  // namespace aoc::eval
