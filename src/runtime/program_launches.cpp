#include "runtime/program_launches.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "aoc/chevron.h"
#include "tikicpulib.h"

namespace aoc::runtime {

namespace {

std::mutex g_mu;
LaunchObserver g_observer;
std::map<void*, std::string> g_stream_errors;

std::string kernel_name(const void* kernel) {
  Dl_info info{};
  if (dladdr(kernel, &info) != 0 && info.dli_sname != nullptr) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status),
                                                     std::free);
    return status == 0 && readable ? std::string(readable.get()) : std::string(info.dli_sname);
  }
  std::ostringstream os;
  os << kernel;
  return os.str();
}

}  // namespace

void set_launch_observer(LaunchObserver observer) {
  std::lock_guard<std::mutex> g(g_mu);
  g_observer = std::move(observer);
}

std::string take_stream_error(void* stream) {
  std::lock_guard<std::mutex> g(g_mu);
  const auto it = g_stream_errors.find(stream);
  if (it == g_stream_errors.end()) return "";
  std::string e = std::move(it->second);
  g_stream_errors.erase(it);
  return e;
}

LaunchConfig chevron_config(uint32_t block_dim) {
  // Launches in this syntax run vector kernels (`__vector__ __global__`, or the AIV-only default
  // of a kernel without KERNEL_TASK_TYPE): blockDim AIV cores.
  LaunchConfig cfg = icpu_config(block_dim);
  cfg.mode = CoreMode::AIV;
  return cfg;
}

void finish_chevron_launch(const void* kernel, void* stream, LaunchResult run) {
  const std::string name = kernel_name(kernel);
  LaunchObserver observer;
  {
    std::lock_guard<std::mutex> g(g_mu);
    observer = g_observer;
    if (!run.ok && g_stream_errors.find(stream) == g_stream_errors.end())
      g_stream_errors[stream] = name + ": " + run.error;
  }
  if (!run.ok) std::fprintf(stderr, "[aoc] kernel %s failed: %s\n", name.c_str(), run.error.c_str());
  if (observer) observer(name, static_cast<uint32_t>(run.cores.size()), run);
}

}  // namespace aoc::runtime
