// The compiler run in the evaluator's sandbox (base/sandbox.h).
//
// A candidate's sources are untrusted, and the preprocessor reads whatever they name: an
// `#include </etc/passwd>` that got past the static check would have the compiler quote the
// file in its messages, which are stored and printed. So the compiler runs like the harness:
// in new user, mount, PID, IPC and network namespaces whose root holds the system and
// toolchain folders and the folders the build reads (staged sources, package, AscendC headers,
// precompiled headers) read-only, and its output folder as the one writable place. Where
// namespaces are unavailable it runs in a process group and CompilerRun::isolation says why.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "base/process.h"

namespace aoc::build {

struct CompilerRun {
  base::ProcessResult result;   // exit code (-1: not started, killed or out of time) and output
  std::string isolation;  // as SandboxResult::isolation
};

// `argv[0]` is the compiler (a name on PATH or a path); it writes only into `workdir`, which
// must exist and is the compiler's working folder and TMPDIR.
CompilerRun run_compiler_sandboxed(const std::vector<std::string>& argv, const std::filesystem::path& workdir,
                                   const std::vector<std::filesystem::path>& readable);

// The absolute path of `program`: itself when it has a '/', else the first match on $PATH.
std::filesystem::path program_path(const std::string& program);

}  // namespace aoc::build
