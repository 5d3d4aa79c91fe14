#include "build/compiler_identity.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "base/content_hash.h"
#include "base/process.h"
#include "base/published_file.h"

namespace aoc::build {
namespace fs = std::filesystem;

namespace {

std::string ask_compiler(const std::string& compiler, bool& ok) {
  const base::ProcessResult v = base::run_process({compiler, "--version"});
  const base::ProcessResult m = base::run_process({compiler, "-dumpmachine"});
  ok = v.exit_code == 0 && m.exit_code == 0;
  return v.output + m.output;
}

// The file `compiler` names: itself when it has a slash, else the first match on $PATH,
// with symbolic links followed. Empty when not found.
fs::path resolve(const std::string& compiler) {
  std::error_code ec;
  if (compiler.find('/') != std::string::npos) {
    fs::path p = fs::canonical(compiler, ec);
    return ec ? fs::path() : p;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / compiler;
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    fs::path p = fs::canonical(candidate, ec);
    if (!ec && fs::is_regular_file(p, ec)) return p;
  }
  return {};
}

bool is_elf_binary(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

}  // namespace

std::string compiler_identity(const std::string& compiler, const fs::path& cache_dir) {
  bool ok = false;
  const fs::path binary = resolve(compiler);
  if (binary.empty() || cache_dir.empty() || !is_elf_binary(binary)) return ask_compiler(compiler, ok);
  std::error_code ec;
  const auto size = fs::file_size(binary, ec);
  const auto mtime = fs::last_write_time(binary, ec);
  if (ec) return ask_compiler(compiler, ok);
  base::ContentHash h;
  h.add("aoc-compiler-id-v1").add(compiler).add(binary.string()).add(std::to_string(size));
  h.add(std::to_string(mtime.time_since_epoch().count()));
  const fs::path dir = cache_dir / "compiler-id";
  const fs::path file = dir / h.hex();
  if (std::ifstream in(file, std::ios::binary); in) {
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  const std::string id = ask_compiler(compiler, ok);
  if (!ok) return id;  // a compiler that failed to answer is asked again next time
  base::publish_text(file, id);  // a concurrent reader sees all or nothing
  return id;
}

}  // namespace aoc::build
