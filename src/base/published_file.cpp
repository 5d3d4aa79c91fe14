#include "base/published_file.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <string>

namespace aoc::base {
namespace fs = std::filesystem;

namespace {

// The machine's name: processes of two cluster nodes writing into one shared cache may have the
// same pid.
const std::string& host_name() {
  static const std::string name = [] {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return std::string("host");
    std::string n(buf);
    for (char& c : n)
      if (c == '/') c = '_';
    return n;
  }();
  return name;
}

}  // namespace

fs::path temporary_beside(const fs::path& path) {
  static std::atomic<uint64_t> serial{0};
  return fs::path(path.string() + ".tmp." + host_name() + "." + std::to_string(::getpid()) + "." +
                  std::to_string(serial++));
}

bool publish(const fs::path& path, const std::function<bool(const fs::path&)>& write, std::string* error) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  const fs::path tmp = temporary_beside(path);
  bool ok = write(tmp);
  if (!ok) {
    if (error) *error = "cannot write " + tmp.string();
  } else {
    fs::rename(tmp, path, ec);
    ok = !ec;
    if (!ok && error) *error = "cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message();
  }
  if (!ok) fs::remove(tmp, ec);
  return ok;
}

bool publish_text(const fs::path& path, std::string_view contents, std::string* error) {
  return publish(
      path,
      [&](const fs::path& tmp) {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        out.close();
        return static_cast<bool>(out);
      },
      error);
}

bool publish_copy(const fs::path& path, const fs::path& from, std::string* error) {
  return publish(
      path,
      [&](const fs::path& tmp) {
        std::error_code ec;
        return fs::copy_file(from, tmp, fs::copy_options::overwrite_existing, ec) && !ec;
      },
      error);
}

}  // namespace aoc::base
