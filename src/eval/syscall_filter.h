// The system-call filter the aoc-harness child puts on itself before it loads a candidate's
// kernel library (whose constructors are the candidate's first code to run). It is the wall
// that does not depend on reading the source: with it, no process can be started (execve,
// fork, vfork, clone without CLONE_THREAD), no file opened for writing (the child opens its
// result files beforehand), nothing renamed, removed or created, no socket made, no other
// process traced, signalled or read, no namespace or mount changed, no io_uring (which would
// open files behind the filter's back). A forbidden call stops the child with
// kForbiddenSyscallExit after naming the call on stderr. The capabilities the child holds in
// its user namespace are dropped first, and no_new_privs is set.
#pragma once
#include <string>

namespace aoc::eval {

constexpr int kForbiddenSyscallExit = 120;
constexpr const char* kForbiddenSyscallMarker = "aoc-harness: forbidden system call ";

// Installs the filter on the calling process (all its threads to come). Returns "" on
// success, else why it could not (no seccomp in this kernel ...).
std::string install_syscall_filter();

}  // namespace aoc::eval
