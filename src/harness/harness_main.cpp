// aoc-harness: runs one case of a candidate kernel inside the evaluator's sandbox.
// Usage: aoc-harness DIR, where DIR is the private folder the evaluator prepared
// (docs/eval.md, "Isolation"). It opens the files it will write, puts its system-call
// filter on itself (eval/syscall_filter.h), and only then loads DIR/kernel.so, runs each
// trial's inputs through the tiling function and the kernel, and writes outputs, per-core
// traces and result.json back through the files it opened. It never computes a golden
// or judges a result.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <new>

#include "eval/harness_protocol.h"
#include "eval/kernel_exec.h"
#include "eval/syscall_filter.h"
#include "package/kernel_library.h"
#include "package/soc_platform.h"
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

int open_for_writing(const std::filesystem::path& p) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot open " + p.string() + " for writing");
  return fd;
}

// Every file the harness writes, opened before the filter forbids opening files for writing.
struct ResultFiles {
  int result = -1;
  std::vector<std::vector<int>> outputs;  // [trial][output]
  int trace = -1;                         // the first trial's, when traces are recorded
  void open(const std::filesystem::path& dir, const aoc::eval::HarnessRequest& req, bool with_traces) {
    for (int t = 0; t < std::max(1, req.trials); ++t) {
      outputs.emplace_back();
      for (size_t o = 0; o < req.outputs.size(); ++o)
        outputs.back().push_back(open_for_writing(aoc::eval::output_file(dir, t, o)));
    }
    if (with_traces) trace = open_for_writing(aoc::eval::trace_file(dir, 0));
  }
};

// A trial's input files, opened read-only: the folder's own, or those the request names
// (shown read-only by the sandbox). The kernel's GM maps them privately (eval/kernel_exec.h).
struct InputFiles {
  std::vector<aoc::eval::InputBytes> bytes;
  void open(const std::filesystem::path& dir, const aoc::eval::HarnessRequest& req, int trial) {
    for (size_t i = 0; i < req.inputs.size(); ++i) {
      const bool given = static_cast<size_t>(trial) < req.input_sources.size();
      const std::filesystem::path p = given ? std::filesystem::path(req.input_sources[trial].at(i).path)
                                            : aoc::eval::input_file(dir, trial, i);
      aoc::eval::InputBytes in;
      in.fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
      if (in.fd < 0) throw std::runtime_error("cannot read " + p.string());
      bytes.push_back(in);
      struct stat st {};
      if (::fstat(in.fd, &st) != 0) throw std::runtime_error("cannot read " + p.string());
      bytes.back().offset = given ? req.input_sources[trial][i].offset : 0;
      bytes.back().bytes = given ? req.input_sources[trial][i].bytes : static_cast<size_t>(st.st_size);
    }
  }
  InputFiles() = default;
  InputFiles(const InputFiles&) = delete;
  InputFiles& operator=(const InputFiles&) = delete;
  ~InputFiles() {
    for (const auto& in : bytes) ::close(in.fd);
  }
};

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
  ResultFiles files;
  try {
    files.result = open_for_writing(result_file(dir));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aoc-harness: %s\n", e.what());
    return 3;
  }
  try {
    const HarnessRequest req = read_request(dir);
    statuses.assign(static_cast<size_t>(std::max(1, req.trials)), TrialStatus{});
    const bool with_traces = !req.soc.empty() && !req.tiling_only;
    if (!req.tiling_only) files.open(dir, req, with_traces);
    if (const std::string err = install_syscall_filter(); !err.empty())
      throw std::runtime_error("cannot install the system-call filter: " + err);
    // From here on the candidate's code may run (the library's constructors first).
    const auto lib = aoc::package::KernelLibrary::open(dir / req.library, req.kernel_symbol, req.op_type);
    aoc::host::PlatformConfig platform = aoc::host::current_platform();
    aoc::CoreLimits limits;
    limits.ub_bytes = static_cast<uint32_t>(platform.ub_bytes);
    if (!req.soc.empty()) {
      const aoc::sim::Soc soc = aoc::sim::load_soc(req.soc);
      platform = aoc::package::platform_for(soc);
      limits = soc.limits;
    }
    // A tuning configuration changes only what the tiling function is told (through the
    // context and PlatformAscendCManager alike); the core keeps its real UB.
    if (req.config.cores != 0 || req.config.ub_bytes != 0) {
      try {
        platform = aoc::runtime::with_overrides(platform, req.config.cores, req.config.ub_bytes);
      } catch (const std::invalid_argument& e) {
        failed(statuses, 0, "tiling_error", std::string("configuration: ") + e.what());
        write_statuses(files.result, statuses);
        return 0;
      }
    }
    aoc::host::set_current_platform(platform);
    for (current = 0; current < statuses.size(); ++current) {
      const int t = static_cast<int>(current);
      InputFiles inputs;
      if (!req.tiling_only) inputs.open(dir, req, t);  // a tiling-only request has no tensors
      // Only the first trial is timed and checked for races; the later ones are for correctness.
      const bool trace = with_traces && t == 0;
      KernelRun run = execute_kernel(req, lib, inputs.bytes, platform, limits, trace);
      // An allocation that failed inside the run; one execute_kernel named itself is kept.
      if (g_out_of_memory && run.status.status != "memory_limit") {
        run.status.status = "memory_limit";
        run.status.message = kMemoryMessage;
      }
      statuses[current] = run.status;
      if (run.status.status != "ok") break;
      for (size_t o = 0; o < run.outputs.size(); ++o)
        write_bytes(files.outputs[current][o], run.outputs[o].data(), run.outputs[o].size(),
                    output_file(dir, t, o).string());
      if (trace) write_traces(files.trace, run.cores, trace_file(dir, t).string(), run.output_spans);
    }
  } catch (const std::bad_alloc&) {
    failed(statuses, current, "memory_limit", kMemoryMessage);
  } catch (const std::exception& e) {
    failed(statuses, current, "error", e.what());
  }
  try {
    write_statuses(files.result, statuses);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aoc-harness: %s\n", e.what());
    return 3;
  }
  return 0;
}
