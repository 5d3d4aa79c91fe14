// Runs an untrusted program (the harness holding a candidate kernel) in a child
// process under limits: address space, CPU time, file size, a wall-clock timeout,
// a cap on captured stdout/stderr, stdin closed, its own process group (killed as a
// whole on timeout and after exit, so nothing it spawned survives), and a fresh
// network namespace with no interfaces where the kernel permits unprivileged ones.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::eval {

struct SandboxLimits {
  uint64_t address_space_bytes = 8ull << 30;
  uint64_t cpu_seconds = 60;
  double wall_seconds = 30.0;
  uint64_t file_size_bytes = 1ull << 30;    // largest file the child may write
  size_t output_bytes = 64 * 1024;          // stdout+stderr kept; the rest is dropped
  bool isolate_network = true;
};

struct SandboxResult {
  bool started = false;
  bool exited = false;  // normal exit (exit_code valid)
  int exit_code = -1;
  int signal = 0;       // terminating signal, 0 if none
  bool timed_out = false;   // wall-clock timeout (we killed it)
  bool cpu_limit = false;   // SIGXCPU from RLIMIT_CPU
  bool output_truncated = false;
  bool network_isolated = false;  // false: unshare(CLONE_NEWNET) was not permitted here
  std::string output;
  std::string start_error;
  double wall_seconds = 0;
};

// argv[0] is a path to an executable; `workdir` becomes its working directory.
SandboxResult run_sandboxed(const std::vector<std::string>& argv, const std::filesystem::path& workdir,
                            const SandboxLimits& limits);

// "SIGSEGV (segmentation fault)".
std::string signal_description(int sig);

}  // namespace aoc::eval
