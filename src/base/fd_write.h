// Writing a whole buffer to a file descriptor with nothing but write(2): no allocation, no
// exception, no lock, so it is async-signal-safe and fit for a child between fork and exec
// (the sandbox's setup steps) or a forked copy of a threaded process (contained calls).
#pragma once
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace aoc::base {

// True when all `n` bytes were written; false on an error or a write that made no progress
// (errno tells which). Retries writes interrupted by a signal.
inline bool write_fully(int fd, const void* data, size_t n) noexcept {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace aoc::base
