// aoc-harness: runs one case of a candidate kernel inside the evaluator's sandbox.
// Usage: aoc-harness DIR, where DIR is the private folder the evaluator prepared
// (docs/eval.md, "Isolation"). It loads DIR/kernel.so, runs each trial's inputs
// through the tiling function and the kernel, and writes outputs, per-core traces
// and result.json back into DIR. It never computes a golden or judges a result.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <new>

#include "eval/harness_protocol.h"
#include "eval/kernel_exec.h"
#include "ops/case_runner.h"
#include "ops/kernel_library.h"
#include "runtime/platform.h"
#include "sim/soc.h"

namespace {

std::atomic<bool> g_out_of_memory{false};

// Every failed operator new passes here first: the flag tells a memory-limit failure
// apart from other exceptions the launcher turns into kernel errors.
void on_out_of_memory() {
  g_out_of_memory = true;
  std::set_new_handler(nullptr);
  throw std::bad_alloc();
}

constexpr const char* kMemoryMessage =
    "the candidate exceeded the address-space limit (an allocation failed); reduce its memory use";

void failed(std::vector<aoc::eval::TrialStatus>& statuses, size_t trial, const char* status, const std::string& msg) {
  auto& s = statuses[std::min(trial, statuses.size() - 1)];
  s.status = status;
  s.message = msg;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace aoc::eval;
  if (argc != 2) {
    std::fprintf(stderr, "usage: aoc-harness DIR (a folder prepared by the evaluator)\n");
    return 2;
  }
  const fs::path dir = argv[1];
  std::set_new_handler(on_out_of_memory);
  std::vector<TrialStatus> statuses(1);
  size_t current = 0;
  try {
    const HarnessRequest req = read_request(dir);
    statuses.assign(static_cast<size_t>(std::max(1, req.trials)), TrialStatus{});
    const auto lib = aoc::op::KernelLibrary::open(dir / req.library, req.kernel_symbol, req.op_type);
    aoc::host::PlatformConfig platform = aoc::host::current_platform();
    aoc::CoreLimits limits;
    limits.ub_bytes = static_cast<uint32_t>(platform.ub_bytes);
    if (!req.soc.empty()) {
      const aoc::sim::Soc soc = aoc::sim::load_soc(req.soc);
      platform = aoc::op::platform_for(soc);
      limits = soc.limits;
    }
    // A tuning configuration changes only what the tiling function is told (through the
    // context and PlatformAscendCManager alike); the core keeps its real UB.
    if (req.config.cores != 0 || req.config.ub_bytes != 0) {
      try {
        platform = aoc::rt::with_overrides(platform, req.config.cores, req.config.ub_bytes);
      } catch (const std::invalid_argument& e) {
        failed(statuses, 0, "tiling_error", std::string("configuration: ") + e.what());
        write_statuses(dir, statuses);
        return 0;
      }
    }
    aoc::host::set_current_platform(platform);
    for (current = 0; current < statuses.size(); ++current) {
      const int t = static_cast<int>(current);
      std::vector<std::vector<unsigned char>> inputs, outputs;
      for (size_t i = 0; i < req.inputs.size(); ++i) inputs.push_back(read_bytes(input_file(dir, t, i)));
      for (size_t o = 0; o < req.outputs.size(); ++o) outputs.push_back(read_bytes(output_file(dir, t, o)));
      KernelRun run = execute_kernel(req, lib, inputs, std::move(outputs), platform, limits, !req.soc.empty());
      if (g_out_of_memory) {
        run.status.status = "memory_limit";
        run.status.message = kMemoryMessage;
      }
      statuses[current] = run.status;
      if (run.status.status != "ok") break;
      for (size_t o = 0; o < run.outputs.size(); ++o)
        write_bytes(output_file(dir, t, o), run.outputs[o].data(), run.outputs[o].size());
      if (!req.soc.empty()) write_traces(trace_file(dir, t), run.cores);
    }
  } catch (const std::bad_alloc&) {
    failed(statuses, current, "memory_limit", kMemoryMessage);
  } catch (const std::exception& e) {
    failed(statuses, current, "error", e.what());
  }
  try {
    write_statuses(dir, statuses);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aoc-harness: %s\n", e.what());
    return 3;
  }
  return 0;
}
