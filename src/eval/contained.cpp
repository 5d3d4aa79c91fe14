#include "eval/contained.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>

#include "base/fd_write.h"
#include "base/sandbox.h"

namespace aoc::eval {

namespace {

// Everything from `from` to `to` (inclusive) closed; nothing when the range is empty.
void close_fds(unsigned from, unsigned to) {
  if (from <= to) syscall(SYS_close_range, from, to, 0u);
}

// The answer goes into `answer_fd` (a memory file the parent reads once the child is gone: a
// golden's outputs are hundreds of megabytes on a large case, which a pipe would carry in 64
// KiB pieces through both processes); the pipe `done_fd` carries one byte, 'o' for an answer
// and 'e' for an error message, once the answer is complete.
[[noreturn]] void child(int done_fd, int answer_fd, const std::function<std::string()>& fn) {
  setpgid(0, 0);
  const int devnull = ::open("/dev/null", O_RDWR);
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO})
    if (devnull >= 0) dup2(devnull, fd);
  // No other worker's pipes held open while the golden runs (they would not see their EOF).
  const unsigned lo = static_cast<unsigned>(std::min(done_fd, answer_fd));
  const unsigned hi = static_cast<unsigned>(std::max(done_fd, answer_fd));
  close_fds(3u, lo - 1);
  close_fds(lo + 1, hi - 1);
  close_fds(hi + 1, ~0u);
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
  if (base::write_fully(answer_fd, msg.data(), msg.size())) (void)base::write_fully(done_fd, &tag, 1);
  _exit(0);
}

// The whole content of the memory file `fd`.
bool read_answer(int fd, std::string& out) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return false;
  out.resize(static_cast<size_t>(st.st_size));
  size_t at = 0;
  while (at < out.size()) {
    const ssize_t got = ::pread(fd, out.data() + at, out.size() - at, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    at += static_cast<size_t>(got);
  }
  return true;
}

}  // namespace

ContainedResult run_contained(const std::string& what, const std::function<std::string()>& fn, double wall_seconds) {
  ContainedResult r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.error = "cannot run " + what + ": pipe: " + std::strerror(errno);
    return r;
  }
  const int answer_fd = memfd_create("aoc-contained-answer", MFD_CLOEXEC);
  if (answer_fd < 0) {
    r.error = "cannot run " + what + ": memfd_create: " + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    r.error = "cannot run " + what + ": fork: " + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    close(answer_fd);
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    child(fds[1], answer_fd, fn);
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
    r.error = what + " was killed by " + base::signal_description(WTERMSIG(st));
  } else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
    r.error = what + " exited with status " + std::to_string(WEXITSTATUS(st)) + " (it called exit?)";
  } else if (data.size() != 1 || (data[0] != 'o' && data[0] != 'e')) {
    r.error = what + " ended without an answer (it called exit?)";
  } else if (std::string answer; !read_answer(answer_fd, answer)) {
    r.error = "cannot read the answer of " + what + ": " + std::strerror(errno);
  } else if (data[0] == 'o') {
    r.ok = true;
    r.answer = std::move(answer);
  } else {
    r.error = what + " threw: " + answer;
  }
  close(answer_fd);
  return r;
}

}  // namespace aoc::eval
