#include "eval/sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace aoc::eval {

std::string signal_description(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = sigdescr_np(sig);
  std::string s = abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
  if (desc != nullptr) s += std::string(" (") + desc + ")";
  return s;
}

namespace {

// Between fork and exec only async-signal-safe calls: plain system calls, no allocation.
[[noreturn]] void child_exec(char* const* argv, const char* workdir, const SandboxLimits& l, int out_fd,
                             int status_fd) {
  setpgid(0, 0);
  // The network namespace first: it needs no privileges beyond what the kernel grants
  // unprivileged user namespaces; a failure is reported through the status pipe.
  char net = 'n';
  if (l.isolate_network) {
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0 || unshare(CLONE_NEWNET) == 0) net = 'y';
  }
  (void)!write(status_fd, &net, 1);
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  const rlimit as{l.address_space_bytes, l.address_space_bytes};
  const rlimit cpu{l.cpu_seconds, l.cpu_seconds + 1};
  const rlimit fsz{l.file_size_bytes, l.file_size_bytes};
  const rlimit core{0, 0};
  setrlimit(RLIMIT_AS, &as);
  setrlimit(RLIMIT_CPU, &cpu);
  setrlimit(RLIMIT_FSIZE, &fsz);
  setrlimit(RLIMIT_CORE, &core);
  if (chdir(workdir) != 0) _exit(126);
  execve(argv[0], argv, environ);
  _exit(127);
}

}  // namespace

SandboxResult run_sandboxed(const std::vector<std::string>& argv, const std::filesystem::path& workdir,
                            const SandboxLimits& limits) {
  SandboxResult r;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string wd = workdir.string();

  int out[2], status[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {out[0], out[1], status[0], status[1]}) close(fd);
    return r;
  }
  if (pid == 0) child_exec(args.data(), wd.c_str(), limits, out[1], status[1]);
  // Also set from the parent, so the group exists before we might need to kill it.
  setpgid(pid, pid);
  close(out[1]);
  close(status[1]);
  r.started = true;
  char net = 'n';
  if (read(status[0], &net, 1) == 1) r.network_isolated = net == 'y';
  close(status[0]);

  const auto deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(limits.wall_seconds));
  char buf[8192];
  bool open_pipe = true;
  while (open_pipe) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = read(out[0], buf, sizeof(buf));
    if (got > 0) {
      const size_t room = limits.output_bytes > r.output.size() ? limits.output_bytes - r.output.size() : 0;
      r.output.append(buf, std::min(room, static_cast<size_t>(got)));
      if (static_cast<size_t>(got) > room) r.output_truncated = true;
    } else if (got == 0 || errno != EINTR) {
      open_pipe = false;
    }
  }
  close(out[0]);
  // The child closed its output (or timed out): wait for it within the deadline.
  int st = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &st, 0);
      break;
    }
    usleep(2000);
  }
  // Anything the child left behind in its group (spawned processes) goes too.
  kill(-pid, SIGKILL);
  if (WIFEXITED(st)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    r.signal = WTERMSIG(st);
    r.cpu_limit = r.signal == SIGXCPU;
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace aoc::eval
