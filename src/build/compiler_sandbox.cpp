#include "build/compiler_sandbox.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "base/sandbox.h"

namespace aoc::build {
namespace fs = std::filesystem;

fs::path program_path(const std::string& program) {
  if (program.find('/') != std::string::npos) return fs::absolute(program);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr && *path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const fs::path p = fs::path(d.empty() ? "." : d) / program;
    if (::access(p.c_str(), X_OK) == 0) return fs::absolute(p);
  }
  return {};
}

CompilerRun run_compiler_sandboxed(const std::vector<std::string>& argv, const fs::path& workdir,
                                   const std::vector<fs::path>& readable) {
  CompilerRun run;
  const fs::path compiler = program_path(argv.at(0));
  if (compiler.empty()) {
    run.result.output = "cannot start " + argv[0] + ": not found on PATH (set AOC_CXX to the compiler's path)";
    return run;
  }
  base::SandboxLimits limits;
  // A compile is bounded by the header-heavy kernel units: about a gigabyte and a minute on a
  // loaded machine. The limits stop a runaway template or include loop, nothing more.
  limits.address_space_bytes = 16ull << 30;
  base::set_case_time_limit(limits, 900);
  limits.output_bytes = 4u << 20;  // whole error cascades, parsed into diagnostics afterwards
  limits.readable = readable;
  // A toolchain installed outside the system folders (AOC_CXX=/opt/gcc-12/bin/g++) brings its
  // installation prefix: cc1plus, its headers and libraries are found relative to the driver.
  std::error_code ec;
  const fs::path real = fs::canonical(compiler, ec);
  if (!ec && real.parent_path().has_parent_path()) limits.readable.push_back(real.parent_path().parent_path());
  std::vector<std::string> args = argv;
  args[0] = compiler.string();
  const base::SandboxResult sr = base::run_sandboxed(args, fs::absolute(workdir), limits);
  run.isolation = sr.isolation;
  run.result.output = sr.output;
  if (!sr.started) {
    run.result.output = "cannot start the compiler " + compiler.string() + ": " + sr.start_error;
  } else if (sr.timed_out || sr.cpu_limit) {
    run.result.output += "\nthe compiler did not finish within " + std::to_string(static_cast<int>(limits.wall_seconds)) +
                         " s and was stopped";
  } else if (sr.signal != 0) {
    run.result.output += "\nthe compiler was killed by " + base::signal_description(sr.signal);
  } else if (sr.exited) {
    run.result.exit_code = sr.exit_code;
  }
  if (sr.output_truncated) run.result.output += "\n(compiler output cut at " + std::to_string(limits.output_bytes) + " bytes)";
  return run;
}

}  // namespace aoc::build
