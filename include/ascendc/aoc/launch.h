// Runs a kernel on blockDim logical blocks, the way the device would, but deterministically:
// every logical core (AIV or AIC) gets its own thread with its own thread-local CoreState,
// and a baton lets exactly one core run at a time, in block order. SyncAll hands the baton
// on until every core of the barrier has arrived. The first error stops the launch and is
// reported with the block that raised it; each core's instruction trace is collected for
// the simulator.
//
// Declared with the AscendC headers because tikicpulib.h (ICPU_RUN_KF) is built on it; the
// implementation is src/runtime/launcher.cpp, in library aoc_runtime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "aoc/core_state.h"
#include "aoc/trace.h"

namespace aoc::runtime {

// Which cores one block consists of: AIV-only and AIC-only run blockDim cores of that
// type; MIX runs blockDim groups of 1 AIC + 2 AIV.
enum class CoreMode { AIV, AIC, MIX };

struct LaunchConfig {
  uint32_t block_dim = 1;
  CoreMode mode = CoreMode::AIV;
  uint64_t tiling_key = 0;
  CoreLimits limits;  // local memory sizes of each core (the selected SoC's)
  bool record_trace = true;
};

// One logical core after the run.
struct CoreRun {
  int32_t core_type = 2;      // AscendC::AIV / AscendC::AIC
  int64_t block_idx = 0;      // what GetBlockIdx() returned on it
  int64_t group = 0;          // the block (group) it belongs to: the raw block_idx builtin
  int64_t sub_block_idx = 0;  // 0/1 for the two AIVs of a MIX group
  uint64_t api_blocks = 0;    // aoc::tls_api_blocks of the core's run: simulation overhead
  std::string printed;        // what the kernel printed on it (aoc/print.h)
  Trace trace;
};

struct LaunchResult {
  bool ok = true;
  std::string error;             // "block 5 (AIV): file:line: Api: detail"
  int64_t failed_block = -1;     // GetBlockIdx() of the failing core
  int32_t failed_core_type = 0;
  std::string failed_api, failed_file;  // set when the failure was an aoc::KernelError
  unsigned failed_line = 0;
  int32_t kernel_type = -1;      // KERNEL_TASK_TYPE_DEFAULT the kernel declared, -1 if none
  std::vector<CoreRun> cores;    // in launch order (group by group; AIC before its AIVs)
  // What the device tolerates but the kernel should not rely on, over all cores:
  // message -> times seen (CoreState::warn).
  std::map<std::string, uint64_t> warnings;
};

// Runs `body` once per logical core.
LaunchResult launch(const LaunchConfig& cfg, const std::function<void()>& body);

// A GM argument of a kernel: registered in aoc::GmRegistry for the launch (unless it is
// already, e.g. a GmAlloc buffer) so GlobalTensor bounds checks know its size.
//
// The kernel receives a guarded address for it (runtime/gm_guard.h): reachable through the API
// only, a raw dereference stops the launch. `direct` hands over the real address instead; the
// tiling blob is passed that way, as device kernels read their tiling struct through a plain
// __gm__ pointer (it holds only what the host wrote, never the operator's data).
struct GmArg {
  void* ptr = nullptr;
  size_t bytes = 0;
  std::string name;
  bool direct = false;
};

constexpr size_t kMaxKernelArgs = 32;

// Calls `kernel`, a `void(GM_ADDR...)` entry with args.size() parameters (at most 32),
// for example one found with dlsym.
LaunchResult launch_kernel(const LaunchConfig& cfg, void* kernel, const std::vector<GmArg>& args);

// Thrown by the tikicpulib helpers (ICPU_RUN_KF) when the run failed.
class LaunchError : public std::runtime_error {
 public:
  explicit LaunchError(LaunchResult r) : std::runtime_error(r.error), result_(std::move(r)) {}
  const LaunchResult& result() const { return result_; }

 private:
  LaunchResult result_;
};

const char* core_type_name(int32_t core_type);

}  // namespace aoc::runtime
