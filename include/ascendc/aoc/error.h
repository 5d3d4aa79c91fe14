// Errors raised by the CPU implementation of the AscendC API when a kernel misuses
// it (out-of-bounds access, UB overflow, misalignment, queue misuse ...). They name
// the API call and the kernel source line; the launcher turns them into a failed
// run instead of a crash.
#pragma once
#include <source_location>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "aoc/instrumentation.h"

namespace aoc {

class KernelError : public std::runtime_error {
 public:
  KernelError(std::string api, std::string file, unsigned line, std::string what)
      : std::runtime_error(format(api, file, line, what)),
        api_(std::move(api)), file_(std::move(file)), line_(line), detail_(std::move(what)) {}
  const std::string& api() const { return api_; }
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }
  const std::string& detail() const { return detail_; }

 private:
  static std::string format(const std::string& api, const std::string& file, unsigned line,
                            const std::string& what) {
    std::ostringstream os;
    os << file << ":" << line << ": " << api << ": " << what;
    return os.str();
  }
  std::string api_, file_;
  unsigned line_;
  std::string detail_;
};

// Builds the message from any streamable pieces: fail("Add", loc, "count ", n, " exceeds ...").
template <typename... Parts>
[[noreturn]] void fail(const char* api, const std::source_location& loc, Parts&&... parts) {
  std::ostringstream os;
  (os << ... << std::forward<Parts>(parts));
  throw KernelError(api, loc.file_name(), loc.line(), os.str());
}

// "file:line" of a call site, for messages that are not errors.
inline std::string where(const std::source_location& loc) {
  return std::string(loc.file_name()) + ":" + std::to_string(loc.line());
}

template <typename... Parts>
AOC_FORCE_INLINE void check(bool ok, const char* api, const std::source_location& loc, Parts&&... parts) {
  if (!ok) fail(api, loc, std::forward<Parts>(parts)...);
}

}  // namespace aoc
