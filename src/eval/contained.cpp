#include "eval/contained.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "eval/fd_write.h"
#include "eval/sandbox.h"

namespace aoc::eval {

namespace {

[[noreturn]] void child(int out_fd, const std::function<std::string()>& fn) {
  setpgid(0, 0);
  const int devnull = ::open("/dev/null", O_RDWR);
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO})
    if (devnull >= 0) dup2(devnull, fd);
  // No other worker's pipes held open while the golden runs (they would not see their EOF).
  if (out_fd > 3) syscall(SYS_close_range, 3u, static_cast<unsigned>(out_fd - 1), 0u);
  syscall(SYS_close_range, static_cast<unsigned>(out_fd + 1), ~0u, 0u);
  const rlimit core{0, 0};
  setrlimit(RLIMIT_CORE, &core);
  std::string msg;
  char tag = 'e';
  try {
    msg = fn();
    tag = 'o';
  } catch (const std::exception& e) {
    msg = e.what();
  } catch (...) {
    msg = "an exception that is not a std::exception";
  }
  // A short answer is refused by the parent like a missing one.
  (void)write_fully(out_fd, &tag, 1);
  (void)write_fully(out_fd, msg.data(), msg.size());
  _exit(0);
}

}  // namespace

ContainedResult run_contained(const std::string& what, const std::function<std::string()>& fn, double wall_seconds) {
  ContainedResult r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.error = "cannot run " + what + ": pipe: " + std::strerror(errno);
    return r;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    r.error = "cannot run " + what + ": fork: " + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    child(fds[1], fn);
  }
  setpgid(pid, pid);
  close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                              std::chrono::duration<double>(wall_seconds));
  std::string data;
  bool timed_out = false;
  char buf[65536];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = ::read(fds[0], buf, sizeof(buf));
    if (got > 0) data.append(buf, static_cast<size_t>(got));
    else if (got == 0 || errno != EINTR) break;
  }
  close(fds[0]);
  // Whatever it started goes with it; after EOF the child is exiting, so the wait is short.
  if (timed_out) kill(-pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  kill(-pid, SIGKILL);
  if (timed_out) {
    r.error = what + " did not finish within " + std::to_string(static_cast<int>(wall_seconds)) + " s (an endless loop?)";
  } else if (WIFSIGNALED(st)) {
    r.error = what + " was killed by " + signal_description(WTERMSIG(st));
  } else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
    r.error = what + " exited with status " + std::to_string(WEXITSTATUS(st)) + " (it called exit?)";
  } else if (data.empty()) {
    r.error = what + " ended without an answer (it called exit?)";
  } else if (data[0] == 'o') {
    r.ok = true;
    r.answer = data.substr(1);
  } else {
    r.error = what + " threw: " + data.substr(1);
  }
  return r;
}

}  // namespace aoc::eval
