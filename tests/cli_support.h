// Running the ascendopt program from a test: the binary of this build, its exit status
// and its output.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace aoc::testing {

inline std::filesystem::path ascendopt_binary() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "bin" / "ascendopt";
}

struct CliRun {
  int status = -1;  // exit status, -1 when killed or not started
  std::string out;
};

// Runs a shell command line; its exit status and standard output.
inline CliRun run_command(const std::string& cmd) {
  CliRun r;
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) r.out.append(buf, n);
  const int st = pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Runs ascendopt with `args` (shell syntax); `merge_stderr` folds stderr into `out`,
// otherwise it is discarded.
inline CliRun run_ascendopt(const std::string& args, bool merge_stderr = true) {
  return run_command(ascendopt_binary().string() + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace aoc::testing
