// Runs an untrusted program (the harness holding a candidate kernel) in a child process.
//
// Where the system allows it (user namespaces, or root), the child gets its own user, mount,
// PID, IPC and network namespaces: a root file system of its own holding only the system
// folders (read-only), the files it is given to read (read-only), /dev/null and friends, a
// fresh /proc, and its working folder as the only writable place (also its TMPDIR); no
// network but an unconfigured loopback; no view of other processes. It is PID 1's child in
// its PID namespace, so when the case ends (or its time runs out) every process it started
// dies with the namespace, whatever session or process group it moved to.
//
// Elsewhere (namespaces refused, e.g. in a container whose seccomp profile forbids them) the
// child runs in its own process group, killed whole; SandboxResult::isolation says which.
// In both, limits on address space, CPU time, file size, wall-clock time and captured
// output apply, stdin is /dev/null and no core files are written. The harness adds its
// own system-call filter on top (eval/syscall_filter.h), which holds in both modes.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::base {

// The per-case time limit of the commands' --timeout. It guards against a hang, nothing more: a
// performance case of 256 MB takes over a minute of wall clock on a loaded 2-core machine
// (add_layer_norm's large_bf16_bandwidth: 69 s at load average 10).
inline constexpr double kDefaultCaseSeconds = 120.0;

struct SandboxLimits {
  uint64_t address_space_bytes = 8ull << 30;
  uint64_t cpu_seconds = static_cast<uint64_t>(kDefaultCaseSeconds);
  double wall_seconds = kDefaultCaseSeconds;
  uint64_t file_size_bytes = 1ull << 30;    // largest file the child may write
  size_t output_bytes = 64 * 1024;          // stdout+stderr kept; the rest is dropped
  bool namespaces = true;                   // false: the process-group mode even where namespaces work
  // Files or folders the child may read besides the system folders and argv[0] (e.g. the
  // SoC file). Only in the namespace mode does anything else become invisible.
  std::vector<std::filesystem::path> readable;
};

// Sets the wall-clock limit of a case and raises its CPU limit to match (a case allowed W
// seconds may also compute that long).
inline void set_case_time_limit(SandboxLimits& l, double wall_seconds) {
  l.wall_seconds = wall_seconds;
  l.cpu_seconds = std::max<uint64_t>(l.cpu_seconds, static_cast<uint64_t>(std::ceil(wall_seconds)));
}

struct SandboxResult {
  bool started = false;
  bool exited = false;  // normal exit (exit_code valid)
  int exit_code = -1;
  int signal = 0;       // terminating signal, 0 if none
  bool timed_out = false;   // wall-clock timeout (we killed it)
  bool cpu_limit = false;   // SIGXCPU from RLIMIT_CPU
  bool output_truncated = false;
  bool network_isolated = false;  // true in the namespace mode
  std::string isolation;          // "namespaces", or "process group" with the reason namespaces were not used
  std::string output;
  std::string start_error;
  double wall_seconds = 0;
};

// argv[0] is an absolute path to an executable; `workdir` (absolute) becomes its working
// directory and the one folder it may write.
SandboxResult run_sandboxed(const std::vector<std::string>& argv, const std::filesystem::path& workdir,
                            const SandboxLimits& limits);

// Whether run_sandboxed uses namespaces on this system, and if not, why (probed once).
std::string sandbox_isolation();

// "SIGSEGV (segmentation fault)".
std::string signal_description(int sig);

}  // namespace aoc::base
