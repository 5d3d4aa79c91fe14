// Runs one public case of an operator on the CPU: fresh seeded inputs, the host
// TilingFunc through gert::TilingContext, GM buffers (outputs pre-filled with a
// poison pattern), the kernel on blockDim blocks, the golden in double precision,
// the precision screen per output, and the simulated time of the run.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aoc/host/platform_config.h"
#include "ops/compare.h"
#include "ops/golden.h"
#include "ops/kernel_library.h"
#include "ops/op_package.h"
#include "runtime/launcher.h"
#include "sim/hazards.h"
#include "sim/hw_limit.h"
#include "sim/profile.h"
#include "sim/soc.h"

namespace aoc::op {

// Byte every output buffer is pre-filled with: NaN for every float type, so an
// element the kernel never writes fails the comparison.
constexpr unsigned char kPoisonByte = 0xFF;

struct CaseOptions {
  uint64_t seed = 0;
  aoc::host::PlatformConfig platform;  // what the TilingFunc sees
  const aoc::sim::Soc* soc = nullptr;  // simulator model; no timing when null
  std::string chrome_trace_path;       // write the Chrome/Perfetto trace of this case here (needs soc)
  // Called with the per-core traces of a run that completed (e.g. to keep them for re-timing
  // on other SoC parameters without running the kernel again).
  std::function<void(const std::vector<aoc::rt::CoreRun>&)> on_traces;
};

struct OutputCheck {
  std::string name;
  std::vector<int64_t> shape;
  CompareResult cmp;
};

// Race: the outputs may be right on the CPU, but the hazard checker found local-memory
// accesses whose order the kernel leaves to timing (both call sites in the message).
enum class Verdict { Pass, Fail, Error, Race };
const char* to_string(Verdict v);

struct CaseOutcome {
  std::string name;
  std::string dtype;   // variant label
  std::string shapes;  // "x=[8,2048] y=[8,2048]"
  Verdict verdict = Verdict::Error;
  std::string message;  // why it failed or errored
  std::string error_file;  // kernel source file:line of a kernel error
  unsigned error_line = 0;
  std::vector<OutputCheck> outputs;
  uint32_t block_dim = 0;
  uint64_t tiling_key = 0;
  std::optional<double> sim_us;  // simulated Task Duration
  std::optional<aoc::sim::Profile> profile;   // per-block and per-pipe times (msprof fields)
  std::optional<aoc::sim::HwLimit> hw_limit;  // T_HW and its bound unit
  std::vector<aoc::sim::Hazard> hazards;
  uint64_t api_records = 0;    // trace records of API calls, all blocks
  uint64_t kernel_blocks = 0;  // executed basic blocks of kernel code between them (scalar work)
  std::map<std::string, double> sim_profile;  // msprof-style op-level fields (aiv_vec_time ...), sim/profile.h
  std::string sim_error;
  // Device-tolerated behaviour of the kernel (GM padding touched, a sync the toolchain
  // inserts ...), one line each with the number of times seen; they do not change the verdict.
  std::vector<std::string> warnings;
  double wall_ms = 0;
};

// The reference (double) and, optionally, the same golden built in float: the CPU
// baseline of the precision screen's fallback.
struct Goldens {
  const GoldenLibrary* reference = nullptr;
  const GoldenLibrary* same_precision = nullptr;
};

CaseOutcome run_case(const OpPackage& p, size_t case_index, const KernelLibrary& kernel, const Goldens& goldens,
                     const CaseOptions& opt);  // in this process: trusted kernels only (eval/evaluator.h)

// Platform numbers the TilingFunc sees for a simulator SoC.
aoc::host::PlatformConfig platform_for(const aoc::sim::Soc& soc);

}  // namespace aoc::op
